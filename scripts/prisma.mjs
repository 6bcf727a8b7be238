#!/usr/bin/env node
// Runs the Prisma CLI offline. With the JavaScript engine (prisma.config.ts) the query engine
// library is never loaded, but the CLI still tries to download it unless this variable names
// an existing file; the package.json is as good as any.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const cli = createRequire(import.meta.url).resolve("prisma/build/index.js");
const env = {
  ...process.env,
  PRISMA_QUERY_ENGINE_LIBRARY: process.env.PRISMA_QUERY_ENGINE_LIBRARY ?? path.join(root, "package.json"),
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { cwd: root, env, stdio: "inherit" });
process.exit(result.status ?? 1);
