import type { ParsedArgs } from "@/lib/cli/args";

/** One CLI command (scripts/cli/<name>.ts). `run` returns the JSON printed on success. */
export interface Command {
  name: string;
  usage: string;
  /** False for commands that find their database themselves, or need none. */
  needsDatabase?: boolean;
  run: (args: ParsedArgs) => Promise<unknown>;
}
