/**
 * `tsx scripts/cli.ts <command> [options]`: the CLI from its sources (lib/cli/run.ts), with the
 * commands listed from scripts/cli/. `npm run cli` runs the same from the prebuilt bundle.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Command } from "@/lib/cli/command";
import { runCli, type CommandLoaders } from "@/lib/cli/run";

const dir = path.join(import.meta.dirname, "cli");
const loaders: CommandLoaders = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((file) => [file.slice(0, -3), () => import(pathToFileURL(path.join(dir, file)).href) as Promise<{ default: Command }>]),
);
// process.exit: open handles (a pool, a queue) must not keep a finished command alive.
process.exit(await runCli(loaders, process.argv.slice(2)));
