/**
 * pylint, which PyScent runs for five of its smells (CRScore Table 14): too-many-statements
 * (long method), too-many-arguments with n = 6 (long parameter list), too-many-branches (long
 * branch), too-many-instance-attributes (many attributes), too-many-public-methods (many
 * methods). Its other messages are kept under their own names. Left out: import-error and
 * no-name-in-module (the file is analyzed without its repository, so every project import
 * fails) and duplicate-code (the old and new file are analyzed together).
 */
import { z } from "zod";
import { run, toolJson } from "./exec";
import type { Finding } from "./types";

export const PYLINT_ARGS = ["--output-format=json", "--score=n", "--persistent=n", "--max-args=6", "--disable=import-error,no-name-in-module,duplicate-code"];

/** PyScent's smells among pylint's messages, by message id. */
export const PYLINT_SMELLS: Record<string, string> = {
  R0915: "Long method",
  R0913: "Long parameter list",
  R0912: "Long branch",
  R0902: "Many attributes",
  R0904: "Many methods",
};

const messagesSchema = z.array(
  z.object({ path: z.string(), line: z.number(), endLine: z.number().nullable().optional(), symbol: z.string(), message: z.string(), "message-id": z.string(), obj: z.string().optional() }),
);

export async function pylintVersion(): Promise<string | null> {
  const result = await run("pylint", ["--version"]);
  return result.code === 0 ? (/pylint\s+(\S+)/.exec(result.stdout)?.[1] ?? null) : null;
}

const sentenceOf = (id: string, message: string, line: number, obj: string) => {
  const smell = PYLINT_SMELLS[id];
  const where = obj ? `\`${obj}\` (line ${line})` : `line ${line}`;
  if (smell) return `${smell}: ${where} has ${message.replace(/^Too many/, "too many").replace(/\.\s*$/, "")}; consider splitting it up.`;
  return `${message.replace(/\.\s*$/, "")} at ${where}.`;
};

/** Findings per analyzed path (as given). */
export async function runPylint(files: readonly string[], version: string): Promise<Map<string, Finding[]>> {
  const result = await run("pylint", [...PYLINT_ARGS, ...files], { timeoutMs: 300_000 });
  if (result.code === null) throw new Error("pylint is not installed: apt-get install pylint");
  const messages = messagesSchema.parse(toolJson("pylint", result));
  const byFile = new Map<string, Finding[]>(files.map((f) => [f, []]));
  for (const m of messages) {
    const key = files.find((f) => f === m.path || f.endsWith(`/${m.path}`)) ?? m.path;
    const list = byFile.get(key) ?? [];
    byFile.set(key, list);
    const id = m["message-id"];
    list.push({
      tool: "pylint",
      toolVersion: version,
      ruleId: `${id} ${m.symbol}`,
      smellType: PYLINT_SMELLS[id] ?? m.symbol,
      line: m.line,
      endLine: Math.max(m.endLine ?? m.line, m.line),
      message: m.message,
      sentence: sentenceOf(id, m.message, m.line, m.obj ?? ""),
    });
  }
  return byFile;
}
