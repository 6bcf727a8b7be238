/**
 * JSHint with its defaults, as the CRScore authors ran it on JavaScript changes; in process
 * through the `jshint` package's JSHINT function (the same checker its CLI runs).
 */
import { createRequire } from "node:module";
import type { Finding } from "./types";
import { SetupError } from "@/lib/errors";

interface JshintError {
  code?: string;
  reason?: string;
  line?: number;
  evidence?: string;
}
interface Jshint {
  (source: string, options?: object, globals?: object): boolean;
  errors: (JshintError | null)[];
}

const require = createRequire(import.meta.url);

function load(): { JSHINT: Jshint; version: string } | null {
  try {
    return { JSHINT: (require("jshint") as { JSHINT: Jshint }).JSHINT, version: (require("jshint/package.json") as { version: string }).version };
  } catch {
    return null;
  }
}

export function jshintVersion(): string | null {
  return load()?.version ?? null;
}

const trimReason = (reason: string) => reason.replace(/\.\s*$/, "");

export function runJshint(source: string): Finding[] {
  const jshint = load();
  if (!jshint) throw new SetupError("JSHint is not installed: run npm install (the jshint package)");
  jshint.JSHINT(source, {}, {});
  return jshint.JSHINT.errors
    .filter((e): e is JshintError => e !== null && typeof e.line === "number" && typeof e.reason === "string")
    .map((e) => {
      const ruleId = e.code ?? "jshint";
      const evidence = (e.evidence ?? "").trim();
      const message = e.reason!;
      return {
        tool: "jshint",
        toolVersion: jshint.version,
        ruleId,
        smellType: ruleId,
        line: e.line!,
        endLine: e.line!,
        message,
        sentence: `${trimReason(message)} at line ${e.line}${evidence ? `: \`${evidence.slice(0, 120)}\`` : ""}.`,
      };
    });
}
