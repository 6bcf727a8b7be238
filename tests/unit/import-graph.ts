/**
 * The project's import graph, read from the sources with TypeScript's parser: every import,
 * export-from and dynamic import() of every .ts/.tsx file under the given folders, resolved the
 * way tsconfig.json and the bundlers resolve them ("@/" is the project root; relative paths; a
 * folder's index). What tests/unit/structure.test.ts checks the layers of docs/architecture.md on.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface Edge {
  /** The importing file, relative to the root with "/" separators. */
  from: string;
  specifier: string;
  /** The project file imported (relative to the root), or null for a package. */
  file: string | null;
  /** Whether `file` exists (a .ts/.tsx module, or another file such as a stylesheet or an .mjs script). */
  resolved: boolean;
  /** The package imported ("pg", "@prisma/client"), or null for a project file. */
  pkg: string | null;
  /** `import type`, or every name imported is `type`: erased from the JavaScript. */
  typeOnly: boolean;
  /** import("…"): loaded when first used. */
  dynamic: boolean;
}

const EXTENSIONS = [".ts", ".tsx"];

/** The .ts/.tsx files under `dirs` (relative to `root`), skipping `skip` folders. */
export function sourceFiles(root: string, dirs: readonly string[], skip: readonly string[] = []): string[] {
  const files: string[] = [];
  const walk = (rel: string) => {
    if (skip.includes(rel)) return;
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && !entry.name.startsWith(".")) walk(child);
      } else if (EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith(".d.ts")) files.push(child);
    }
  };
  for (const dir of dirs) if (existsSync(path.join(root, dir))) walk(dir);
  return files.sort();
}

const isFile = (file: string) => existsSync(file) && statSync(file).isFile();

/** The project file `target` (a path without extension, relative to the root) names, or null. */
function resolveFile(root: string, target: string): string | null {
  const candidates = [target, ...EXTENSIONS.map((ext) => target + ext), ...EXTENSIONS.map((ext) => `${target}/index${ext}`)];
  const found = candidates.find((c) => isFile(path.join(root, c)));
  return found === undefined ? null : path.posix.normalize(found);
}

const packageOf = (specifier: string) => (specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);

/** The imports of one file. */
export function importsOf(root: string, file: string): Edge[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const edges: Edge[] = [];
  const add = (specifier: string, typeOnly: boolean, dynamic: boolean) => {
    let target: string | null = null;
    let found: string | null = null;
    let pkg: string | null = null;
    if (specifier.startsWith("@/")) target = specifier.slice(2);
    else if (specifier.startsWith(".")) target = path.posix.join(path.posix.dirname(file), specifier);
    else pkg = packageOf(specifier);
    if (target !== null) found = resolveFile(root, target);
    edges.push({ from: file, specifier, file: found ?? target, resolved: found !== null, pkg, typeOnly, dynamic });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      // `import { type A, type B } from` is erased too; `import "x"` (no clause) runs x.
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly, false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node.moduleSpecifier.text, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)), false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0])) {
      add(node.arguments[0].text, false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Every file's imports. */
export function importGraph(root: string, files: readonly string[]): Map<string, Edge[]> {
  return new Map(files.map((file) => [file, importsOf(root, file)]));
}

/**
 * The import cycles among `files` (edges kept by `keep`), one per strongly connected component
 * of more than one file or a file importing itself: the files of the component in a cycle's order.
 */
export function importCycles(graph: Map<string, Edge[]>, keep: (edge: Edge) => boolean = () => true): string[][] {
  const next = (file: string) => [...new Set((graph.get(file) ?? []).filter((e) => keep(e) && e.file !== null && graph.has(e.file)).map((e) => e.file!))];
  // Tarjan's strongly connected components (iterative: long import chains would overflow the stack).
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: string; children: string[]; i: number }[] = [];
    const open = (file: string) => {
      index.set(file, counter);
      low.set(file, counter++);
      stack.push(file);
      onStack.add(file);
      work.push({ file, children: next(file), i: 0 });
    };
    open(start);
    while (work.length) {
      const top = work[work.length - 1];
      if (top.i < top.children.length) {
        const child = top.children[top.i++];
        if (!index.has(child)) open(child);
        else if (onStack.has(child)) low.set(top.file, Math.min(low.get(top.file)!, index.get(child)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1].file, Math.min(low.get(work[work.length - 1].file)!, low.get(top.file)!));
      if (low.get(top.file) === index.get(top.file)) {
        const component: string[] = [];
        let file: string;
        do {
          file = stack.pop()!;
          onStack.delete(file);
          component.push(file);
        } while (file !== top.file);
        if (component.length > 1 || next(top.file).includes(top.file)) components.push(component.reverse());
      }
    }
  }
  return components;
}

/** The files `file` loads when it runs: its value imports, static and (with `dynamic`) loaded later, transitively. */
export function loadedBy(graph: Map<string, Edge[]>, file: string, options: { dynamic?: boolean } = {}): { files: Map<string, string | null>; packages: Map<string, string> } {
  /** Each file loaded, with the file that first imported it (null: `file` itself); each package with its first importer. */
  const files = new Map<string, string | null>([[file, null]]);
  const packages = new Map<string, string>();
  const queue = [file];
  while (queue.length) {
    const current = queue.pop()!;
    for (const edge of graph.get(current) ?? []) {
      if (edge.typeOnly || (edge.dynamic && !options.dynamic)) continue;
      if (edge.pkg !== null) {
        if (!packages.has(edge.pkg)) packages.set(edge.pkg, current);
      } else if (edge.file !== null && !files.has(edge.file)) {
        files.set(edge.file, current);
        if (graph.has(edge.file)) queue.push(edge.file);
      }
    }
  }
  return { files, packages };
}

/** The chain of imports by which `loadedBy` reached `file`, from the start: "a.ts > b.ts > file". */
export function chainTo(files: Map<string, string | null>, file: string): string {
  const chain = [file];
  for (let at = files.get(file); at != null; at = files.get(at)) chain.unshift(at);
  return chain.join(" > ");
}
