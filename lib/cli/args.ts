/** Minimal `--flag value` / `--switch` parsing for the CLI, with clear errors. */
import type { z } from "zod";
import { AppError } from "@/lib/errors";

export interface ParsedArgs {
  flags: Map<string, string | true>;
  positional: string[];
}

/** A wrong command line; the CLI prints the command's usage after the message. */
export class CliError extends AppError {
  constructor(message: string) {
    super("INVALID_INPUT", { message });
  }
}

export function parseArgs(argv: string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith("--")) {
      const [name, inline] = arg.slice(2).split("=", 2);
      const next = argv[i + 1];
      if (inline !== undefined) flags.set(name, inline);
      else if (next !== undefined && !next.startsWith("--")) {
        flags.set(name, next);
        i++;
      } else flags.set(name, true);
    } else positional.push(arg);
  }
  return { flags, positional };
}

export function requireFlag(args: ParsedArgs, name: string): string {
  const value = args.flags.get(name);
  if (typeof value !== "string" || value === "") throw new CliError(`Missing required option --${name}`);
  return value;
}

export function optionalFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  if (value === true) throw new CliError(`Option --${name} needs a value`);
  return value;
}

/** An optional flag's value under a field's schema (the rule the web's forms and routes apply); a refusal names the flag. */
export function fieldFlag<T extends z.ZodType>(args: ParsedArgs, name: string, field: T): z.output<T> | undefined {
  const value = optionalFlag(args, name);
  if (value === undefined) return undefined;
  const parsed = field.safeParse(value);
  if (!parsed.success) throw new CliError(`--${name}: ${parsed.error.issues.map((i) => i.message).join("; ")}; got "${value}"`);
  return parsed.data;
}

export function hasSwitch(args: ParsedArgs, name: string): boolean {
  return args.flags.has(name);
}

/** The options a command's usage line names (`--study`, `--items`, …). */
export function optionsOfUsage(usage: string): Set<string> {
  return new Set([...usage.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]));
}

/** Refuses an option the command does not know (a misspelt or unsupported option must not be silently ignored). */
export function refuseUnknownOptions(args: ParsedArgs, usage: string): void {
  const known = optionsOfUsage(usage);
  const unknown = [...args.flags.keys()].filter((name) => !known.has(name));
  if (unknown.length > 0) throw new CliError(`Unknown option${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `--${n}`).join(", ")}; this command takes ${[...known].map((n) => `--${n}`).join(", ") || "no options"}`);
}
