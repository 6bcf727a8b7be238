/**
 * The OpenAPI 3.1 description of the JSON routes (served at /api/openapi.json): one entry per
 * route and method, whose query and body are the zod schemas the route parses with, turned into
 * JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) as the routes read them. A route without
 * an entry fails tests/unit/openapi.test.ts.
 */
import { z } from "zod";
import { SCOPE_DESCRIPTIONS, type ApiScopeName } from "@/lib/auth/api-token";
import { saveRequest } from "@/lib/annotation/value-schemas";
import { startRunSchema } from "@/lib/metric-runs/web";
import { agreementQuerySchema, validityQuerySchema } from "@/lib/validation/report-options";
import { exportQuerySchema, importFormSchema, skipRequest, testResultsFormSchema, timeReport } from "@/lib/validation/route-inputs";

type Method = "GET" | "POST";
/** Who may call a route, besides the token's scope. */
type Audience = "anyone" | "signed-in" | "lead";

export interface ApiRoute {
  method: Method;
  /** As app/api names it: /api/studies/[slug]/export. */
  path: string;
  summary: string;
  audience: Audience;
  /** The API token scope the route takes; none: a session only (next-auth's own) or nobody's (health). */
  scope?: ApiScopeName;
  query?: z.ZodType;
  json?: z.ZodType;
  /** A multipart form: its text fields' schema, and its file fields. */
  form?: { fields: z.ZodType; files: string[] };
  /** The answer's media type; JSON unless given. */
  answers?: string;
}

const NDJSON = "application/x-ndjson";

export const API_ROUTES: readonly ApiRoute[] = [
  { method: "GET", path: "/api/health", summary: "Liveness and database reachability (200 ok, 503 unavailable).", audience: "anyone" },
  { method: "GET", path: "/api/auth/[...nextauth]", summary: "next-auth's own endpoints (CSRF token, session, providers) for the sign-in page.", audience: "anyone" },
  { method: "POST", path: "/api/auth/[...nextauth]", summary: "next-auth's sign-in and sign-out, with its CSRF token: for browsers, not scripts (use an API token).", audience: "anyone" },
  { method: "GET", path: "/api/openapi.json", summary: "This document.", audience: "anyone" },
  { method: "GET", path: "/api/me/assignments", summary: "The account's own assignment queues.", audience: "signed-in", scope: "assign" },
  {
    method: "GET",
    path: "/api/annotations/assignments/[assignmentId]",
    summary: "One of the account's own assignments: its workspace data; `?part=answers` only what is stored; `?part=file&file=ID` one file of a pull request.",
    audience: "signed-in",
    scope: "assign",
    query: z.object({ part: z.enum(["answers", "file"]).optional(), file: z.string().optional() }),
  },
  { method: "POST", path: "/api/annotations", summary: "Saves one annotation of the account's own assignment; 409 with both values on a stale base version.", audience: "signed-in", scope: "assign", json: saveRequest },
  { method: "POST", path: "/api/annotations/assignments/[assignmentId]/time", summary: "Adds active time to the account's own assignment.", audience: "signed-in", scope: "assign", json: timeReport },
  { method: "POST", path: "/api/annotations/assignments/[assignmentId]/submit", summary: "Submits the account's own assignment; 422 with what is missing.", audience: "signed-in", scope: "assign", json: z.object({}) },
  { method: "POST", path: "/api/annotations/assignments/[assignmentId]/skip", summary: "Skips the account's own assignment with a reason.", audience: "signed-in", scope: "assign", json: skipRequest },
  { method: "POST", path: "/api/annotations/assignments/[assignmentId]/resume", summary: "Resumes a skipped assignment of the account's own.", audience: "signed-in", scope: "assign", json: z.object({}) },
  { method: "GET", path: "/api/studies", summary: "The studies the lead leads (all for an admin), with their counts.", audience: "lead", scope: "read" },
  { method: "GET", path: "/api/studies/[slug]/agreement", summary: "The agreement report (the `agreement` CLI's output); 503 with Retry-After while the worker computes the CIs.", audience: "lead", scope: "read", query: agreementQuerySchema },
  { method: "GET", path: "/api/studies/[slug]/validity", summary: "The validity report of a metric against a human question; 503 with Retry-After while the worker computes the CIs.", audience: "lead", scope: "read", query: validityQuerySchema },
  { method: "GET", path: "/api/studies/[slug]/export", summary: "The study's dataset in a format, streamed as a download.", audience: "lead", scope: "read", query: exportQuerySchema, answers: "application/octet-stream" },
  { method: "GET", path: "/api/studies/[slug]/code-changes/[codeChangeId]", summary: "A code change's diff and old and new contents.", audience: "lead", scope: "read" },
  { method: "GET", path: "/api/studies/[slug]/metric-runs", summary: "The study's metric runs, embedding provider and stored metric variants.", audience: "lead", scope: "read" },
  { method: "POST", path: "/api/studies/[slug]/metric-runs", summary: "Plans and queues a metric run (202); poll it at ./RUN_ID.", audience: "lead", scope: "import", json: startRunSchema },
  { method: "GET", path: "/api/studies/[slug]/metric-runs/[runId]", summary: "One metric run with its progress.", audience: "lead", scope: "read" },
  {
    method: "POST",
    path: "/api/studies/[slug]/import",
    summary: "Imports files in one transaction; answers NDJSON: progress lines, then a result (or an error) line.",
    audience: "lead",
    scope: "import",
    form: { fields: importFormSchema, files: ["files", "context"] },
    answers: NDJSON,
  },
  { method: "POST", path: "/api/studies/[slug]/test-results", summary: "Imports review systems' test outcomes (JUnit XML or JSONL).", audience: "lead", scope: "import", form: { fields: testResultsFormSchema, files: ["files"] } },
];

/** `/api/studies/[slug]` as OpenAPI writes it: `/api/studies/{slug}` (a catch-all `[...x]` is `{x}`). */
export const openApiPath = (path: string) => path.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, "{$1}");

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", target: "draft-2020-12", unrepresentable: "any" }) as Record<string, unknown>;

function queryParameters(schema: z.ZodType) {
  const object = jsonSchema(schema) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({ name, in: "query", required: object.required?.includes(name) ?? false, schema: property }));
}

function requestBody(route: ApiRoute) {
  if (route.json) return { required: true, content: { "application/json": { schema: jsonSchema(route.json) } } };
  if (!route.form) return undefined;
  const fields = jsonSchema(route.form.fields) as { properties?: Record<string, unknown>; required?: string[] };
  const files = Object.fromEntries(route.form.files.map((name) => [name, { type: "array", items: { type: "string", contentMediaType: "application/octet-stream" } }]));
  return { required: true, content: { "multipart/form-data": { schema: { type: "object", properties: { ...fields.properties, ...files }, required: [...(fields.required ?? []), route.form.files[0]] } } } };
}

const AUDIENCE: Record<Audience, string> = { anyone: "Anyone.", "signed-in": "Any signed-in account, on its own work.", lead: "Leads, on their own studies (admins on all)." };

function operation(route: ApiRoute) {
  const pathParameters = [...route.path.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
  const body = requestBody(route);
  return {
    summary: route.summary,
    description: `${AUDIENCE[route.audience]} ${route.scope ? `API token scope: ${route.scope} (${SCOPE_DESCRIPTIONS[route.scope]}).` : "No API token."}`,
    ...(route.scope ? { security: [{ apiToken: [] }, { session: [] }], "x-scope": route.scope } : route.audience === "anyone" ? { security: [] } : { security: [{ session: [] }] }),
    parameters: [...pathParameters, ...(route.query ? queryParameters(route.query) : [])],
    ...(body ? { requestBody: body } : {}),
    responses: {
      [route.method === "POST" && route.path.endsWith("/metric-runs") ? "202" : "200"]: { description: "Done.", content: { [route.answers ?? "application/json"]: {} } },
      default: { description: "An error: `{ error, code }` with the status of its code (400 invalid input, 401 no or a bad token, 403 role or scope, 404 not found or not yours, 409 conflict, 413, 415, 422, 429, 503 with Retry-After).", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    },
  };
}

export function openApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of API_ROUTES) (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: "3.1.0",
    info: { title: "CR Judge API", version, description: "The JSON routes. Scripts send `Authorization: Bearer TOKEN` with a personal access token made on the account page or by `npm run cli -- tokens create`; a token acts as its account, within its scopes and never beyond the account's role." },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    components: {
      securitySchemes: {
        apiToken: { type: "http", scheme: "bearer", description: "A personal access token (crj_…)." },
        session: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "The browser's session." },
      },
      schemas: { Error: { type: "object", properties: { error: { type: "string" }, code: { type: "string" } }, required: ["error", "code"] } },
    },
    paths,
  };
}
