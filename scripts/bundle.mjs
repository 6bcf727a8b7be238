/**
 * The CLI and the metric worker start from prebuilt esbuild bundles, not from the TypeScript
 * sources through tsx (which costs 0.6-2 s per start). `node scripts/bundle.mjs` builds them
 * (npm install runs it); `ensureBundle` rebuilds one when any source it was built from changed
 * (recorded size and mtime of every input, and the listing of scripts/cli/), so a start after an
 * edit is still correct.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "node_modules", ".cache", "crjudge");
const commandsDir = path.join(root, "scripts", "cli");

/** The entry of each bundle: a file, or generated source with the folders it lists. */
const ENTRIES = {
  // Each command is its own chunk, loaded only when named.
  cli: () => {
    const files = readdirSync(commandsDir).filter((f) => f.endsWith(".ts")).sort();
    return {
      contents: [
        'import { runCli } from "@/lib/cli/run";',
        `const loaders = { ${files.map((file) => `${JSON.stringify(file.slice(0, -3))}: () => import("./scripts/cli/${file}")`).join(", ")} };`,
        "process.exit(await runCli(loaders, process.argv.slice(2)));",
      ].join("\n"),
      dirs: [commandsDir],
    };
  },
  worker: () => ({ contents: 'import "./scripts/worker.ts";', dirs: [] }),
};

/**
 * pg looks for Cloudflare Workers when it loads (lib/stream.js): without a `navigator` global
 * (Node 20) it constructs a `Response`, and that first use loads Node's fetch (undici, about
 * 20 ms of CPU, as much as the rest of pg). The bundles run in Node only.
 */
const pgInNodeOnly = {
  name: "pg-in-node-only",
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const check = "if (isCloudflareRuntime()) {";
      if (!source.includes(check)) throw new Error(`${args.path} no longer has "${check}": update scripts/bundle.mjs`);
      return { contents: source.replace(check, "if (false) {"), loader: "js" };
    });
  },
};

/**
 * pg-boss loads its cron parser (cron-parser and luxon, about 10 ms of CPU) when it loads, for
 * schedules, which the product does not use (lib/jobs/queue.ts starts it without them): loaded
 * on its first use instead.
 */
const cronOnFirstUse = {
  name: "cron-on-first-use",
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]pg-boss[\\/]src[\\/]timekeeper\.js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const load = "const cronParser = require('cron-parser')";
      if (!source.includes(load)) throw new Error(`${args.path} no longer has "${load}": update scripts/bundle.mjs`);
      return { contents: source.replace(load, "const cronParser = { parseExpression: (...args) => require('cron-parser').parseExpression(...args) }"), loader: "js" };
    });
  },
};

const stamp = (file) => {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : "missing";
};

const entryOf = (name) => path.join(outDir, name, "main.mjs");

function isFresh(name) {
  const meta = path.join(outDir, name, "inputs.json");
  if (!existsSync(meta)) return false;
  const inputs = JSON.parse(readFileSync(meta, "utf8"));
  return Object.entries(inputs).every(([file, recorded]) => stamp(path.join(root, file)) === recorded);
}

export async function buildBundle(name) {
  const { build } = await import("esbuild");
  const entry = ENTRIES[name]();
  // Built into a fresh folder and swapped in whole, so a concurrent start never mixes two builds.
  const staging = path.join(outDir, `${name}.${process.pid}`);
  const result = await build({
    stdin: { contents: entry.contents, resolveDir: root, sourcefile: "main.ts", loader: "ts" },
    bundle: true,
    splitting: true,
    outdir: staging,
    entryNames: "main",
    outExtension: { ".js": ".mjs" },
    platform: "node",
    format: "esm",
    target: "node20",
    // Packages are bundled too (one file instead of dozens to resolve and load, and CommonJS
    // packages no longer scanned for their exports by Node's ES module loader); these stay
    // external: loaded only for workbooks (exceljs), optional (pg-native, pg-cloudflare), and
    // Prisma's query compiler, ES modules loaded on the first Prisma query (2.6 MB, which every
    // build would copy).
    external: ["exceljs", "pg-native", "pg-cloudflare", "@prisma/client/runtime/query_compiler_bg.*"],
    // Bundled CommonJS packages require Node's built-in modules.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    // lib/db and lib/data import "server-only", which throws unless resolved with React's
    // "react-server" condition (scripts/server-only.mjs): its empty module, as in Next's server code.
    alias: { "server-only": "./node_modules/server-only/empty.js" },
    tsconfig: path.join(root, "tsconfig.json"),
    absWorkingDir: root,
    plugins: [pgInNodeOnly, cronOnFirstUse],
    metafile: true,
    logLevel: "error",
  });
  const inputs = {};
  // Bundled packages change with an install, which npm records in node_modules/.package-lock.json:
  // one stamp instead of one per file of every package (each costs a stat at every start).
  const installed = path.join("node_modules", ".package-lock.json");
  inputs[installed] = stamp(path.join(root, installed));
  // And this file: a change to how bundles are built rebuilds them too.
  inputs[path.relative(root, fileURLToPath(import.meta.url))] = stamp(fileURLToPath(import.meta.url));
  for (const file of Object.keys(result.metafile.inputs)) if (!file.startsWith("<") && !file.startsWith("node_modules/")) inputs[file] = stamp(path.join(root, file));
  for (const dir of entry.dirs) inputs[path.relative(root, dir)] = stamp(dir);
  writeFileSync(path.join(staging, "inputs.json"), JSON.stringify(inputs));
  const target = path.join(outDir, name);
  const old = `${target}.old-${process.pid}`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(staging, target);
  rmSync(old, { recursive: true, force: true });
  return entryOf(name);
}

/** The bundle's path, rebuilt first when its sources changed since it was built. */
export async function ensureBundle(name) {
  if (!(name in ENTRIES)) throw new Error(`unknown bundle "${name}" (one of ${Object.keys(ENTRIES).join(", ")})`);
  return isFresh(name) ? entryOf(name) : buildBundle(name);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  for (const name of Object.keys(ENTRIES)) await buildBundle(name);
}
