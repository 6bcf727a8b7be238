/**
 * `import "server-only"` marks the modules that hold the database client and the queries
 * (lib/db, lib/data): Next resolves it to an empty module in server code and fails a build whose
 * browser code imports one (docs/architecture.md, "Layers point down"). Outside Next, Node
 * resolves the package's default export, which throws; the package's empty module is its
 * "react-server" export. So processes that run the sources outside Next (npm start, the benches,
 * the CLI and worker from their sources, Playwright's tests) load this file first
 * (`node --import ./scripts/server-only.mjs`, or NODE_OPTIONS set by playwright.config.ts and
 * vitest.config.ts for their children): it resolves that one package with the "react-server"
 * condition. The CLI and worker bundles (scripts/bundle.mjs) and vitest alias it to the same
 * empty module.
 */
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

/** Node's resolve hook (run in its loader thread): "server-only" with the "react-server" condition. */
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, specifier === "server-only" ? { ...context, conditions: [...context.conditions, "react-server"] } : context);
}

if (isMainThread) register(import.meta.url);
