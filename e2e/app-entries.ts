/**
 * What the app serves, read from the code (`app/**`) and the build
 * (`.next/server/server-reference-manifest.json`): route handlers with their methods, pages and
 * server actions, for the tests that call every one of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";

export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** URL pattern of a file under app/: its folder, without route groups. */
export const urlOf = (file: string) => "/" + path.dirname(path.relative("app", file)).split(path.sep).filter((s) => s !== "." && !/^\(.*\)$/.test(s)).join("/");

/** Every route handler method as "METHOD /url/[param]". */
export function existingRoutes(): string[] {
  return filesUnder("app")
    .filter((f) => path.basename(f) === "route.ts")
    .flatMap((file) => {
      const source = readFileSync(file, "utf8");
      const methods = [...source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/g)].map((m) => m[1]);
      for (const list of source.matchAll(/export\s*\{([^}]*)\}/g)) methods.push(...[...list[1].matchAll(/\bas\s+(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/g)].map((m) => m[1]));
      return methods.map((method) => `${method} ${urlOf(file)}`);
    });
}

export const existingPages = () => filesUnder("app").filter((f) => path.basename(f) === "page.tsx").map(urlOf);

/** `file#export` of every export of a "use server" file. */
export function existingActions(): string[] {
  return filesUnder("app")
    .concat(filesUnder("lib"))
    .filter((f) => /\.tsx?$/.test(f) && /^\s*(\/\*[\s\S]*?\*\/\s*|\/\/[^\n]*\n\s*)*["']use server["']/.test(readFileSync(f, "utf8")))
    .flatMap((file) => [...readFileSync(file, "utf8").matchAll(/export\s+(?:const|async\s+function|function)\s+(\w+)/g)].map((m) => `${file.split(path.sep).join("/")}#${m[1]}`));
}

export interface BuiltAction {
  /** The action's id, sent in the Next-Action header. */
  id: string;
  /** URL patterns of the pages whose server bundle holds it (it is posted to one of them). */
  pages: string[];
}

/** The build's server actions by `file#export`. */
export function builtActions(): Map<string, BuiltAction> {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as { node: Record<string, { filename?: string; exportedName?: string; workers: Record<string, unknown> }> };
  const actions = new Map<string, BuiltAction>();
  for (const [id, entry] of Object.entries(manifest.node)) {
    expect(entry.filename && entry.exportedName, `manifest entry ${id} names its file and export`).toBeTruthy();
    const pages = Object.keys(entry.workers).map((worker) => urlOf(path.join("app", `${worker.replace(/^app\//, "")}.tsx`)));
    actions.set(`${entry.filename}#${entry.exportedName}`, { id, pages });
  }
  return actions;
}
