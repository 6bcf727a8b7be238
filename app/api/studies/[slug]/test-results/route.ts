/**
 * Upload of review systems' test outcomes for leads (docs/test-results.md): multipart form with
 * `system` and `pr` (for JUnit XML files, which name neither) and `files` (JUnit XML or the
 * outcomes JSONL). Answers the import's result as JSON: imported with its summary, or refused
 * (nothing written) with every error's file and line.
 */
import { LEAD_ROLES, requireApiAccount } from "@/lib/auth/session";
import { importTestResults } from "@/lib/data/test-outcomes";
import { importMaxBytes } from "@/lib/http/body";
import { handler } from "@/lib/http/respond";
import { uploadedFiles } from "@/lib/import/file";
import { testResultsFormSchema } from "@/lib/validation/route-inputs";

export const dynamic = "force-dynamic";

async function upload(_request: Request, { params }: { params: Promise<{ slug: string }> }, form: FormData): Promise<Response> {
  const account = await requireApiAccount(LEAD_ROLES, "import");
  const { slug } = await params;
  const fields = testResultsFormSchema.parse({ system: form.get("system") ?? undefined, pr: form.get("pr") ?? undefined });
  const result = await importTestResults(account, { study: slug, system: fields.system, pullRequest: fields.pr, files: await uploadedFiles(form, "files") });
  return Response.json(result, { headers: { "cache-control": "no-store" } });
}

export const POST = handler(upload, { accepts: "multipart", maxBytes: importMaxBytes() });
