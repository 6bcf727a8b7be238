/**
 * The command-line interface for leads and scripts (`npm run cli -- <command> [options]`).
 * Prints JSON on success; on failure a clear message on stderr and exit code 1.
 * The commands are scripts/cli/<name>.ts, one module per command, loaded only when named (a
 * command's imports cost start time): listed from the folder under tsx (scripts/cli.ts), or
 * split into chunks of the prebuilt bundle (scripts/bundle.mjs).
 */
import { CliError, parseArgs, refuseUnknownOptions } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { resolveDatabase } from "@/lib/db/resolve";
import { toAppError } from "@/lib/errors";
import { env } from "@/lib/env";

function usage(commands: Command[]): string {
  return ["Usage: npm run cli -- <command> [options]", "", ...commands.map((c) => `  ${c.usage}`)].join("\n");
}

/** Commands renamed to the glossary's words (docs/glossary.md): an old name is refused with the new one. */
const RENAMED: Record<string, string> = { "create-user": "create-account", users: "accounts", correlate: "validity" };
/** Options renamed so (docs/glossary.md): an old option is refused with the new one. */
const RENAMED_OPTIONS: Record<string, string> = { params: "signature", "batch-size": "window-size" };
/** Option values renamed so (docs/glossary.md): `--level segment` is `--level review`. */
const RENAMED_VALUES: Record<string, Record<string, string>> = { level: { segment: "review" } };

/** Loads a command module, by file name (without `.ts`). */
export type CommandLoaders = Record<string, () => Promise<{ default: Command }>>;

/** Runs the command named in `argv`; returns the exit code. */
export async function runCli(loaders: CommandLoaders, argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const named = name && Object.hasOwn(loaders, name) ? (await loaders[name]()).default : undefined;
  const found = named !== undefined && named.name === name;
  // Only a usage listing (or a command named unlike its file) loads every command.
  const commands = found ? [] : await Promise.all(Object.values(loaders).map(async (load) => (await load()).default));
  const command = found ? named : commands.find((c) => c.name === name);
  if (!command && name !== undefined && Object.hasOwn(RENAMED, name)) {
    process.stderr.write(`The command "${name}" is now "${RENAMED[name]}": npm run cli -- ${RENAMED[name]}\n`);
    return 2;
  }
  if (!command) {
    process.stderr.write(`${name ? `Unknown command "${name}"\n\n` : ""}${usage(commands)}\n`);
    return name === undefined || name === "help" ? 0 : 2;
  }
  const args = parseArgs(rest);
  if (args.flags.has("help")) {
    process.stdout.write(`Usage: npm run cli -- ${command.usage}\n`);
    return 0;
  }
  const renamed = [...args.flags.keys()].find((flag) => Object.hasOwn(RENAMED_OPTIONS, flag));
  if (renamed !== undefined) {
    process.stderr.write(`The option --${renamed} is now --${RENAMED_OPTIONS[renamed]}\nUsage: npm run cli -- ${command.usage}\n`);
    return 2;
  }
  const renamedValue = [...args.flags].find(([flag, value]) => typeof value === "string" && Object.hasOwn(RENAMED_VALUES, flag) && Object.hasOwn(RENAMED_VALUES[flag], value));
  if (renamedValue !== undefined) {
    const [flag, value] = renamedValue as [string, string];
    process.stderr.write(`The option --${flag} ${value} is now --${flag} ${RENAMED_VALUES[flag][value]}\nUsage: npm run cli -- ${command.usage}\n`);
    return 2;
  }
  try {
    refuseUnknownOptions(args, command.usage);
  } catch (error) {
    process.stderr.write(`Error: ${(error as Error).message}\nUsage: npm run cli -- ${command.usage}\n`);
    return 2;
  }
  let database: Awaited<ReturnType<typeof resolveDatabase>> | undefined;
  try {
    database = command.needsDatabase === false ? undefined : await resolveDatabase();
    // For `npm run bench -- cli-start`: the time from process start to the command's own work.
    if (env().CRJUDGE_CLI_TRACE) {
      const cpu = process.cpuUsage();
      process.stderr.write(`cli: first work at ${performance.now().toFixed(1)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms\n`);
    }
    const result = await command.run(args);
    // Wait until the output is handed to the OS: process.exit would cut off a piped write.
    await new Promise<void>((resolve) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`, () => resolve()));
    return 0;
  } catch (error) {
    // The operator's own terminal is the server log: the full message, whatever the code.
    process.stderr.write(`Error: ${toAppError(error).message}\n`);
    if (error instanceof CliError) process.stderr.write(`Usage: npm run cli -- ${command.usage}\n`);
    return 1;
  } finally {
    if (database) {
      const { closeConnections } = await import("@/lib/db/connection");
      await closeConnections().catch(() => undefined);
      await database.release();
    }
  }
}
