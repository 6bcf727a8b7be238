import type { ZodError } from "zod";

/** "field.path: message" per issue, one per line, for CLI output and API error bodies. */
export function formatZodError(error: ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "input"}: ${issue.message}`).join("\n");
}
