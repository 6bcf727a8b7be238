/**
 * The PyScent smells that neither pylint nor radon has a rule for (CRScore Table 14), written
 * for this product on Python's `ast`: long lambda (over 60 characters) and long list
 * comprehension (over 72), PyScent's thresholds; useless exception (a handler that only passes
 * or re-raises, or a bare `except:`); class cohesion (under 30 % of the method-attribute pairs
 * of a class used, PyScent's limit); long message chain (four or more chained attribute
 * calls, `a.b().c().d().e()`); large class (more than 300 lines).
 */
import { run, toolJson } from "./exec";
import type { Finding } from "./types";

export const PYSCENT_LIMITS = { lambdaChars: 60, listCompChars: 72, cohesionPercent: 30, messageChain: 4, classLines: 300 } as const;

/** The detectors; argv: the limits as JSON, then the files. Prints {path: [finding]} (a file that does not parse: {"error"}). */
const SCRIPT = String.raw`
import ast, json, re, sys
limits = json.loads(sys.argv[1])

def code(name):
    return chr(96) + name + chr(96)

def chain_length(node):
    n = 0
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        n += 1
        node = node.func.value
    return n

def is_useless_handler(h):
    body = [s for s in h.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not body:
        return "does nothing but hold a docstring"
    if len(body) == 1 and isinstance(body[0], ast.Pass):
        return "swallows the exception with pass"
    if len(body) == 1 and isinstance(body[0], ast.Raise) and body[0].exc is None:
        return "only re-raises the exception"
    if h.type is None:
        return "catches every exception with a bare except"
    return None

def self_attrs(fn):
    return {n.attr for n in ast.walk(fn) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"}

# ast.get_source_segment(source, node), from the source's lines split once: ast splits the whole
# file again on every call (at \r\n, \r and \n only, each line keeping its end).
def source_lines(source):
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", source)

def segment(lines, node):
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first].encode()[node.col_offset:node.end_col_offset].decode()
    return lines[first].encode()[node.col_offset:].decode() + "".join(lines[first + 1:last]) + lines[last].encode()[:node.end_col_offset].decode()

def analyze(source):
    tree = ast.parse(source)
    source_split = source_lines(source)
    out = []
    chained = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            text = segment(source_split, node) or ast.unparse(node)
            if len(text) > limits["lambdaChars"]:
                out.append({"ruleId": "long-lambda", "smellType": "Long lambda", "line": node.lineno, "endLine": node.end_lineno,
                            "message": "lambda of %d characters" % len(text),
                            "sentence": "This lambda is %d characters long (line %d); a named function would read better." % (len(text), node.lineno),
                            "facts": {"length": len(text)}})
        elif isinstance(node, ast.ListComp):
            text = segment(source_split, node) or ast.unparse(node)
            if len(text) > limits["listCompChars"]:
                out.append({"ruleId": "long-list-comprehension", "smellType": "Long list comprehension", "line": node.lineno, "endLine": node.end_lineno,
                            "message": "list comprehension of %d characters" % len(text),
                            "sentence": "This list comprehension is %d characters long (line %d); consider a loop or a helper function." % (len(text), node.lineno),
                            "facts": {"length": len(text)}})
        elif isinstance(node, ast.ExceptHandler):
            why = is_useless_handler(node)
            if why:
                out.append({"ruleId": "useless-exception", "smellType": "Useless exception", "line": node.lineno, "endLine": node.end_lineno,
                            "message": "exception handler " + why,
                            "sentence": "The exception handler at line %d %s; handle the error or let it propagate." % (node.lineno, why)})
        elif isinstance(node, ast.Call) and id(node) not in chained:
            n = chain_length(node)
            if n >= limits["messageChain"]:
                inner = node
                while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
                    chained.add(id(inner))
                    inner = inner.func.value
                out.append({"ruleId": "long-message-chain", "smellType": "Long message chain", "line": node.lineno, "endLine": node.end_lineno,
                            "message": "chain of %d method calls" % n,
                            "sentence": "Line %d chains %d method calls; the caller depends on the whole chain of objects." % (node.lineno, n),
                            "facts": {"calls": n}})
        elif isinstance(node, ast.ClassDef):
            lines = node.end_lineno - node.lineno + 1
            if lines > limits["classLines"]:
                out.append({"ruleId": "large-class", "smellType": "Large class", "line": node.lineno, "endLine": node.lineno,
                            "message": "class of %d lines" % lines,
                            "sentence": "The class %s is %d lines long; consider splitting its responsibilities." % (code(node.name), lines),
                            "facts": {"lines": lines}})
            methods = [m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
            used = [self_attrs(m) for m in methods]
            attrs = set().union(*used) - {m.name for m in methods} if used else set()
            if len(methods) >= 2 and attrs:
                pairs = sum(len(u & attrs) for u in used)
                cohesion = 100.0 * pairs / (len(methods) * len(attrs))
                if cohesion < limits["cohesionPercent"]:
                    out.append({"ruleId": "class-cohesion", "smellType": "Class cohesion", "line": node.lineno, "endLine": node.lineno,
                                "message": "class cohesion %.0f%%" % cohesion,
                                "sentence": "The methods of %s share few of its attributes (cohesion %.0f%%); it may be doing several unrelated things." % (code(node.name), cohesion),
                                "facts": {"cohesion": round(cohesion, 1)}})
    return out

result = {}
for path in sys.argv[2:]:
    try:
        with open(path, encoding="utf-8") as f:
            result[path] = analyze(f.read())
    except (SyntaxError, ValueError, UnicodeDecodeError) as e:
        result[path] = {"error": str(e)}
print(json.dumps(result))
`;
import { SetupError } from "@/lib/errors";

/** The detectors' version: changed whenever SCRIPT or the limits change, so runs' signatures tell them apart. */
export const PYSCENT_VERSION = "crjudge-pyscent-1";

type RawFinding = Omit<Finding, "tool" | "toolVersion">;

/** Findings per analyzed path; a file Python cannot parse has none. */
export async function runPyscent(files: readonly string[], python = "python3"): Promise<Map<string, Finding[]>> {
  const result = await run(python, ["-c", SCRIPT, JSON.stringify(PYSCENT_LIMITS), ...files], { timeoutMs: 120_000 });
  if (result.code === null) throw new SetupError("Python 3 is not installed: apt-get install python3");
  const report = toolJson("the PyScent detectors", result) as Record<string, RawFinding[] | { error: string }>;
  return new Map(files.map((f) => {
    const found = report[f];
    return [f, Array.isArray(found) ? found.map((x) => ({ ...x, tool: "pyscent", toolVersion: PYSCENT_VERSION })) : []];
  }));
}
