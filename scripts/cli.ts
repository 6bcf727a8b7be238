/**
 * `tsx scripts/cli.ts <command> [options]`: the CLI from its sources (lib/cli/run.ts), with the
 * commands listed from scripts/cli/. `npm run cli` runs the same from the prebuilt bundle.
 */
// First: lib/db and lib/data import "server-only", resolved by this hook outside Next; the CLI's
// modules are loaded after it (below), the static imports here load none of them.
import "./server-only.mjs";
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Command } from "@/lib/cli/command";
import type { CommandLoaders } from "@/lib/cli/run";

const dir = path.join(import.meta.dirname, "cli");
const loaders: CommandLoaders = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((file) => [file.slice(0, -3), () => import(pathToFileURL(path.join(dir, file)).href) as Promise<{ default: Command }>]),
);
// process.exit: open handles (a pool, a queue) must not keep a finished command alive.
const { runCli } = await import("@/lib/cli/run");
process.exit(await runCli(loaders, process.argv.slice(2)));
