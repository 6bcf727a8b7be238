/**
 * pylint, which PyScent runs for five of its smells (CRScore Table 14): too-many-statements
 * (long method), too-many-arguments with n = 6 (long parameter list), too-many-branches (long
 * branch), too-many-instance-attributes (many attributes), too-many-public-methods (many
 * methods). Its other messages are kept under their own names. Left out: import-error and
 * no-name-in-module (the file is analyzed without its repository, so every project import
 * fails) and duplicate-code (the old and new file are analyzed together). Only the standard
 * library is importable, not the libraries installed beside pylint (numpy, pandas, ...): a
 * change's smells must not depend on the machine that analyzes it.
 *
 * The code changes of a chunk are linted by one Python process per core (PYLINT_DRIVER), one
 * pylint run per change as its own `pylint` command would do it, so that pylint starts once and
 * the standard library's modules the changes import are parsed once per process. Each process
 * takes the chunk's next change, the largest first, as soon as it has linted one, so the cores
 * stay busy until the chunk's last changes.
 */
import { readFile, stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";
import { run, startLineProcess, toolJson } from "./exec";
import type { Finding } from "./types";

/** What pylint may import besides the linted files (part of a run's settings, so its signature). */
export const PYLINT_IMPORTS = "standard library";

export const PYLINT_ARGS = ["--output-format=json", "--score=n", "--persistent=n", "--max-args=6", "--disable=import-error,no-name-in-module,duplicate-code"];

/** PyScent's smells among pylint's messages, by message id. */
export const PYLINT_SMELLS: Record<string, string> = {
  R0915: "Long method",
  R0913: "Long parameter list",
  R0912: "Long branch",
  R0902: "Many attributes",
  R0904: "Many methods",
};

const messagesSchema = z.array(
  z.object({ path: z.string(), line: z.number(), column: z.number().optional(), endLine: z.number().nullable().optional(), symbol: z.string(), message: z.string(), "message-id": z.string(), obj: z.string().optional() }),
);
type Message = z.infer<typeof messagesSchema>[number];

/**
 * Messages in line, column, id and text order: pylint's own order of the messages of one
 * statement varies from run to run (it iterates sets of inferred values, ordered by Python's
 * hash seed and by object addresses).
 */
const messageOrder = (a: Message, b: Message) =>
  a.line - b.line || (a.column ?? 0) - (b.column ?? 0) || cmp(a["message-id"], b["message-id"]) || cmp(a.message, b.message) || cmp(a.obj ?? "", b.obj ?? "");
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function pylintVersion(path?: string): Promise<string | null> {
  const result = await run("pylint", ["--version"], { path });
  return result.code === 0 ? (/pylint\s+(\S+)/.exec(result.stdout)?.[1] ?? null) : null;
}

const sentenceOf = (id: string, message: string, line: number, obj: string) => {
  const smell = PYLINT_SMELLS[id];
  const where = obj ? `\`${obj}\` (line ${line})` : `line ${line}`;
  if (smell) return `${smell}: ${where} has ${message.replace(/^Too many/, "too many").replace(/\.\s*$/, "")}; consider splitting it up.`;
  return `${message.replace(/\.\s*$/, "")} at ${where}.`;
};

/** Findings per analyzed path (as given) from pylint's JSON report of `files`. */
export function pylintFindings(report: unknown, files: readonly string[], version: string): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>(files.map((f) => [f, []]));
  for (const m of messagesSchema.parse(report).sort(messageOrder)) {
    const key = files.find((f) => f === m.path || f.endsWith(`/${m.path}`)) ?? m.path;
    const list = byFile.get(key) ?? [];
    byFile.set(key, list);
    const id = m["message-id"];
    list.push({
      tool: "pylint",
      toolVersion: version,
      ruleId: `${id} ${m.symbol}`,
      smellType: PYLINT_SMELLS[id] ?? m.symbol,
      line: m.line,
      endLine: Math.max(m.endLine ?? m.line, m.line),
      message: m.message,
      sentence: sentenceOf(id, m.message, m.line, m.obj ?? ""),
    });
  }
  return byFile;
}

/**
 * Lints each group of files (a change's new and old file) as `pylint ARGS FILES` would, in one
 * process. argv: pylint's script folder and ARGS as JSON; each line on stdin is a group (a JSON
 * list of files), answered by one line on stdout: the JSON report (as text) or {"error"}.
 *
 * A module astroid finds outside the standard library and the linted files' folders is not
 * imported (as when it is not installed): in a site-packages or dist-packages folder it depends
 * on the machine, and inferring into real numpy or pandas costs seconds a change.
 *
 * One group's lint must not change the next one's. What the runs share is astroid's cache of the
 * modules the files import, parsed as any pylint run parses them. Between groups the driver
 * drops the linted files' modules from that cache, clears every inference cache of astroid and
 * pylint (clear_cache without its module cache) and undoes what the linted files wrote into
 * the shared modules: astroid records `lib.attr = value` and `obj.attr = value` of an analyzed
 * file in the locals or instance attributes of whatever the target infers to
 * (AstroidBuilder.delayed_assattr), a library's module or class included; the driver watches
 * those targets and puts their entries back.
 */
const PYLINT_DRIVER = String.raw`
import gc, io, json, os, sys
answers = sys.stdout
args = json.loads(sys.argv[2])
# The pylint command's own module path: its folder first, not the working directory.
sys.path[0] = sys.argv[1]
import sysconfig
import astroid
from astroid import MANAGER
from astroid.builder import AstroidBuilder
from astroid.exceptions import AstroidImportError
from astroid.manager import AstroidManager
from pylint.lint import Run

# Python's cycle collector would take a quarter of the CPU walking astroid's trees again and again
# (each node points at its parent, so every tree is a cycle). It frees memory and nothing else
# here (neither astroid nor pylint keeps weak references), so it runs rarely within a group and
# once after it, and what outlives a group (the imported modules, astroid's cached standard
# library) is frozen out of later collections.
gc.freeze()
gc.set_threshold(100000, 50, 1000)

analyzed = set()
undo = []
delayed_assattr = AstroidBuilder.delayed_assattr

def recording_assattr(self, node):
    if node.root().file not in analyzed:
        return delayed_assattr(self, node)
    expr = node.expr
    infer = expr.infer
    def watched(*args, **kwargs):
        for inferred in infer(*args, **kwargs):
            for owner in (inferred, getattr(inferred, "_proxied", None)):
                for attr in ("instance_attrs", "locals"):
                    entries = getattr(owner, attr, None) if owner is not None else None
                    if isinstance(entries, dict):
                        had = node.attrname in entries
                        undo.append((entries, node.attrname, list(entries[node.attrname]) if had else None))
            yield inferred
    expr.infer = watched
    try:
        return delayed_assattr(self, node)
    finally:
        del expr.infer

AstroidBuilder.delayed_assattr = recording_assattr

stdlib = tuple(os.path.join(os.path.realpath(sysconfig.get_paths()[k]), "") for k in ("stdlib", "platstdlib"))

def importable(location):
    real = os.path.realpath(location)
    parts = real.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        return False
    return real.startswith(stdlib) or os.path.dirname(real) in {os.path.dirname(os.path.realpath(f)) for f in analyzed}

file_from_module_name = AstroidManager.file_from_module_name

def standard_file_from_module_name(self, modname, contextfile):
    found = file_from_module_name(self, modname, contextfile)
    locations = [found.location] if found.location else list(found.submodule_search_locations or [])
    if not all(importable(location) for location in locations):
        raise AstroidImportError("{modname} is not in the standard library", modname=modname)
    return found

AstroidManager.file_from_module_name = standard_file_from_module_name

def clear_caches():
    for name, module in list(sys.modules.items()):
        if module is None or not (name.startswith("astroid") or name.startswith("pylint")):
            continue
        for value in list(vars(module).values()):
            for member in [value] + (list(vars(value).values()) if isinstance(value, type) else []):
                clear = getattr(member, "cache_clear", None)
                if callable(clear):
                    try:
                        clear()
                    except TypeError:
                        pass
    sys.modules["astroid.context"]._invalidate_cache()
    sys.modules["astroid.inference_tip"].clear_inference_tip_cache()
    sys.modules["astroid._cache"].CACHE_MANAGER.clear_all_caches()

def restore(files):
    while undo:
        entries, key, before = undo.pop()
        if before is None:
            entries.pop(key, None)
        else:
            entries[key] = before
    for name, module in list(MANAGER.astroid_cache.items()):
        if getattr(module, "file", None) in files:
            del MANAGER.astroid_cache[name]
    clear_caches()

def lint(files):
    out = io.StringIO()
    saved = sys.stdout
    sys.stdout = out
    try:
        Run(args + files, exit=False)
    finally:
        sys.stdout = saved
    return out.getvalue()

for line in iter(sys.stdin.readline, ""):
    files = json.loads(line)
    analyzed.update(files)
    try:
        report = lint(files)
    except BaseException as error:
        report = {"error": "%s: %s" % (type(error).__name__, error)}
    finally:
        restore(set(files))
        analyzed.clear()
        gc.collect()
        gc.freeze()
    answers.write(json.dumps(report) + "\n")
    answers.flush()
`;
import { SetupError } from "@/lib/errors";

/**
 * The Python that runs the pylint command (its script's #! line; a pip or Debian install alike),
 * and the script's folder, which pylint's own run puts first on its module path.
 */
async function pylintPython(): Promise<{ python: string; scriptDir: string }> {
  const found = await run("sh", ["-c", "command -v pylint"]);
  const script = found.stdout.trim();
  if (found.code !== 0 || !script) throw new SetupError("pylint is not installed: apt-get install pylint");
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec((await readFile(script, "utf8").catch(() => "")).split("\n")[0]);
  const python = !shebang ? "python3" : path.basename(shebang[1]) === "env" ? (shebang[2] ?? "python3") : shebang[1];
  return { python, scriptDir: path.dirname(script) };
}

/**
 * The order in which the driver processes take the groups: the largest first (`sizes`, a group's
 * bytes), as pylint's time grows with a file's length, so that what is left at a chunk's end is
 * small changes that fill both cores.
 */
const largestFirst = (sizes: readonly number[]): number[] => sizes.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a] || a - b);

/**
 * Findings per analyzed path (as given); each group (a change's files) is linted on its own, by
 * one driver process per core, each taking the next group (largestFirst) when it has answered one.
 */
export async function runPylint(groups: readonly (readonly string[])[], version: string): Promise<Map<string, Finding[]>> {
  const { python, scriptDir } = await pylintPython();
  const processes = Math.max(1, Math.min(availableParallelism(), groups.length));
  const sizes = await Promise.all(groups.map(async (files) => (await Promise.all(files.map((file) => stat(file)))).reduce((bytes, s) => bytes + s.size, 0)));
  const order = largestFirst(sizes);
  const reports: unknown[] = [];
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: processes }, async () => {
      const driver = startLineProcess(python, ["-c", PYLINT_DRIVER, scriptDir, JSON.stringify(PYLINT_ARGS)], { timeoutMs: 60 * 60_000 });
      try {
        for (let k = next++; k < order.length && !failed; k = next++) reports[order[k]] = JSON.parse(await driver.ask(JSON.stringify(groups[order[k]])));
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        await driver.end();
      }
    }),
  );
  const byFile = new Map<string, Finding[]>();
  groups.forEach((files, i) => {
    const report = reports[i];
    if (typeof report !== "string") throw new SetupError(`pylint failed on ${files.join(", ")}: ${(report as { error?: string })?.error ?? "no report"}`);
    for (const [file, findings] of pylintFindings(toolJson("pylint", { stdout: report, stderr: "", code: 0 }), files, version)) byFile.set(file, findings);
  });
  return byFile;
}
