/**
 * /api/openapi.json describes every route handler: each method exported by a file under
 * app/api has its operation, with the query parameters and bodies of the zod schemas the routes
 * parse with.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { API_ROUTES, openApiDocument, openApiPath } from "@/lib/http/openapi";

const ROOT = path.resolve(import.meta.dirname, "../../..");

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : []));
}

/** "METHOD /api/…" of every exported handler, as Next serves them. */
function servedRoutes(): string[] {
  return routeFiles(path.join(ROOT, "app/api")).flatMap((file) => {
    const source = readFileSync(file, "utf8");
    const url = "/" + path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/");
    const methods = [...source.matchAll(/export\s+(?:const|async\s+function|function)\s+(GET|HEAD|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
    for (const list of source.matchAll(/export\s*\{([^}]*)\}/g)) methods.push(...[...list[1].matchAll(/\bas\s+(GET|HEAD|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]));
    return methods.map((method) => `${method} ${openApiPath(url)}`);
  });
}

const document = openApiDocument("test");
type Operation = { parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[]; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; "x-scope"?: string; security: unknown[] };
const operation = (method: string, url: string) => (document.paths as Record<string, Record<string, Operation>>)[url]?.[method.toLowerCase()];

describe("the OpenAPI document", () => {
  test("has an operation for every route handler, and none for a route that does not exist", () => {
    const served = servedRoutes().sort();
    expect(served.length).toBeGreaterThan(15);
    const documented = Object.entries(document.paths).flatMap(([url, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${url}`)).sort();
    expect(documented).toEqual(served);
    expect(document.openapi).toBe("3.1.0");
  });

  test("reads a route's query from its zod schema, its path parameters from its folders", () => {
    const agreement = operation("GET", "/api/studies/{slug}/agreement")!;
    const names = agreement.parameters.map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(expect.arrayContaining(["path:slug", "query:task", "query:windowSize", "query:itemSet", "query:resamples", "query:gold"]));
    expect(agreement["x-scope"]).toBe("read");
    const exported = operation("GET", "/api/studies/{slug}/export")!;
    const format = exported.parameters.find((p) => p.name === "format")!;
    expect(format.required).toBe(true);
    expect(format.schema.enum).toEqual(expect.arrayContaining(["jsonl", "long-csv", "gradedreviews"]));
  });

  test("describes JSON and multipart bodies, and the scope each route takes", () => {
    const save = operation("POST", "/api/annotations")!;
    const schema = save.requestBody!.content["application/json"].schema as { oneOf?: unknown[]; anyOf?: unknown[] };
    expect((schema.oneOf ?? schema.anyOf ?? []).length).toBeGreaterThanOrEqual(6);
    expect(save["x-scope"]).toBe("assign");
    const upload = operation("POST", "/api/studies/{slug}/import")!;
    const form = upload.requestBody!.content["multipart/form-data"].schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(form.properties)).toEqual(expect.arrayContaining(["format", "dryRun", "files", "context"]));
    expect(form.required).toEqual(expect.arrayContaining(["format", "files"]));
    expect(upload["x-scope"]).toBe("import");
    expect(operation("GET", "/api/health")!.security).toEqual([]);
    expect(API_ROUTES.filter((r) => r.audience === "lead" && !r.scope)).toEqual([]);
  });
});
