/**
 * Requests from outside against the production build: about 500
 * malformed or cross-site requests to every state-changing route handler (enumerated from
 * app/api, so a new route is covered without an entry here) and to a server action, each
 * answered with its specific 4xx and message, never a 500 or database text, and nothing
 * written; plus the security headers and a browser session without CSP violations.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { builtActions, existingPages, existingRoutes } from "./app-entries";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";
import { assignmentFor, demoChange, watchPageErrors } from "./workspace-fixtures";

const DATABASE_TEXT = /prisma|invalid `|\bINSERT\b|\bUPDATE\b|\bSELECT\b|\bconstraint\b|postgres|\bat .*\.(ts|js):\d+/i;
const MIB = 1024 * 1024;

/** Every POST/PUT/PATCH/DELETE route handler under app/api (except next-auth's), as [method, path template, whether it accepts multipart forms only]; each must go through the one wrapper. */
function stateChangingRoutes(): [string, string, boolean][] {
  const root = path.resolve(import.meta.dirname, "../app/api");
  const routes: [string, string, boolean][] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = readFileSync(full, "utf8");
        const template = `/api/${path.relative(root, dir)}`;
        if (template.startsWith("/api/auth/")) continue;
        for (const [, method] of source.matchAll(/export (?:const|async function) (POST|PUT|PATCH|DELETE)\b/g)) {
          expect(source, `${template} ${method} must be wrapped in handler() from lib/http/respond.ts`).toMatch(new RegExp(`export const ${method} = handler\\(`));
          routes.push([method, template, /accepts: "multipart"/.test(source)]);
        }
      }
    }
  };
  walk(root);
  return routes;
}

/** A hash of every row of every table: equal before and after means nothing was written. */
async function databaseState(): Promise<Record<string, string>> {
  const db = testDb();
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`);
  const state: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await db.$queryRawUnsafe<{ n: bigint; h: string | null }[]>(`SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS h FROM "${name}" t`);
    state[name] = `${row.n}:${row.h}`;
  }
  return state;
}

interface Case {
  name: string;
  headers: Record<string, string>;
  body: Buffer;
  status: number;
  message: RegExp;
}

const json = (value: string, extra: Record<string, string> = {}) => ({ headers: { "content-type": "application/json", ...extra }, body: Buffer.from(value, "utf8") });

/** The malformed and cross-site variants for a JSON route; `valid` is a body the route would accept. */
function jsonCases(base: string, valid: string): Case[] {
  const bad = (name: string, status: number, message: RegExp, request: { headers: Record<string, string>; body: Buffer }): Case => ({ name, status, message, ...request });
  const invalidJson = /not valid JSON/;
  const wrongType = /accepts application\/json only/;
  const nul = /NUL character/;
  const surrogate = /lone UTF-16 surrogate/;
  const foreign = /another (origin|site)/;
  return [
    bad("truncated JSON", 400, invalidJson, json('{"kind":')),
    bad("single quotes", 400, invalidJson, json("{'kind': 'claim'}")),
    bad("unclosed array", 400, invalidJson, json("[1, 2")),
    bad("trailing comma", 400, invalidJson, json('{"a": 1,}')),
    bad("empty JSON body", 400, invalidJson, json("")),
    bad("undefined literal", 400, invalidJson, json("undefined")),
    bad("raw control character", 400, invalidJson, json('{"reason": "a\u0001b"}')),
    bad("NaN", 400, invalidJson, json('{"deltaMs": NaN}')),
    bad("invalid UTF-8", 400, /not valid UTF-8/, { headers: { "content-type": "application/json" }, body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }),
    bad("form encoded", 415, wrongType, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: Buffer.from("kind=claim&reason=x") }),
    bad("multipart", 415, wrongType, { headers: { "content-type": "multipart/form-data; boundary=x" }, body: Buffer.from('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n') }),
    bad("application/xml", 415, wrongType, { headers: { "content-type": "application/xml" }, body: Buffer.from("<save><kind>claim</kind></save>") }),
    bad("text/xml", 415, wrongType, { headers: { "content-type": "text/xml" }, body: Buffer.from("<?xml version=\"1.0\"?><a/>") }),
    bad("text/plain carrying JSON", 415, wrongType, { headers: { "content-type": "text/plain;charset=UTF-8" }, body: Buffer.from(valid) }),
    bad("text/html", 415, wrongType, { headers: { "content-type": "text/html" }, body: Buffer.from("<p>x</p>") }),
    bad("javascript", 415, wrongType, { headers: { "content-type": "application/javascript" }, body: Buffer.from("alert(1)") }),
    bad("octet-stream", 415, wrongType, { headers: { "content-type": "application/octet-stream" }, body: Buffer.from(valid) }),
    bad("json-patch", 415, wrongType, { headers: { "content-type": "application/json-patch+json" }, body: Buffer.from("[]") }),
    bad("csv", 415, wrongType, { headers: { "content-type": "text/csv" }, body: Buffer.from("a,b\n1,2\n") }),
    bad("NUL in a value", 400, nul, json('{"reason": "skip\\u0000this", "deltaMs": 1}')),
    bad("NUL alone", 400, nul, json('{"reason": "\\u0000"}')),
    bad("NUL nested", 400, nul, json('{"value": {"note": "a\\u0000b"}}')),
    bad("NUL in an array", 400, nul, json('{"metrics": ["bleu\\u0000"]}')),
    bad("NUL in a key", 400, nul, json('{"re\\u0000ason": "x"}')),
    bad("NUL in a long text", 400, nul, json(`{"reason": "${"x".repeat(50_000)}\\u0000"}`)),
    bad("NUL as the body", 400, nul, json('"\\u0000"')),
    bad("lone high surrogate", 400, surrogate, json('{"reason": "a\\ud800b"}')),
    bad("lone low surrogate", 400, surrogate, json('{"reason": "\\udfff"}')),
    bad("reversed surrogate pair", 400, surrogate, json('{"reason": "\\udc00\\ud800"}')),
    bad("high surrogate at the end", 400, surrogate, json('{"value": {"text": "ok \\udbff"}}')),
    bad("surrogate in a key", 400, surrogate, json('{"\\ud800": 1}')),
    bad("surrogate in an array", 400, surrogate, json('{"metrics": ["\\udd00"]}')),
    bad("2 MiB body", 413, /larger than/, json(`{"reason": "${"x".repeat(2 * MIB)}"}`)),
    bad("1 MiB + 1 body", 413, /larger than/, json(`{"reason": "${"x".repeat(MIB - 13)}"}`)),
    bad("foreign Origin", 403, foreign, json(valid, { origin: "https://evil.example" })),
    bad("null Origin", 403, foreign, json(valid, { origin: "null" })),
    bad("sibling subdomain", 403, foreign, json(valid, { origin: base.replace("://", "://evil."), "sec-fetch-site": "same-site" })),
    bad("other port", 403, foreign, json(valid, { origin: "http://127.0.0.1:1" })),
    bad("https twin", 403, foreign, json(valid, { origin: base.replace("http://", "https://") })),
    bad("cross-site fetch metadata", 403, foreign, json(valid, { "sec-fetch-site": "cross-site" })),
  ];
}

function multipart(fields: [string, string, string?][], boundary = "----crjudge"): { headers: Record<string, string>; body: Buffer } {
  const parts = fields.map(([name, value, file]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ""}\r\n${file ? "Content-Type: application/x-ndjson\r\n" : ""}\r\n${value}\r\n`);
  return { headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body: Buffer.from(`${parts.join("")}--${boundary}--\r\n`, "utf8") };
}

function multipartCases(base: string): Case[] {
  const valid = multipart([["format", "jsonl"], ["dryRun", "true"], ["files", '{"id": "x"}', "a.jsonl"]]);
  const wrongType = /accepts multipart\/form-data only/;
  const foreign = /another (origin|site)/;
  return [
    { name: "JSON instead of a form", status: 415, message: wrongType, ...json('{"format": "jsonl"}') },
    { name: "form encoded", status: 415, message: wrongType, headers: { "content-type": "application/x-www-form-urlencoded" }, body: Buffer.from("format=jsonl") },
    { name: "text/plain", status: 415, message: wrongType, headers: { "content-type": "text/plain" }, body: Buffer.from("format=jsonl") },
    { name: "xml", status: 415, message: wrongType, headers: { "content-type": "application/xml" }, body: Buffer.from("<import/>") },
    { name: "no content type", status: 415, message: wrongType, headers: {}, body: Buffer.from("") },
    { name: "wrong boundary", status: 400, message: /not valid multipart/, headers: { "content-type": "multipart/form-data; boundary=other" }, body: valid.body },
    { name: "truncated form", status: 400, message: /not valid multipart/, headers: valid.headers, body: valid.body.subarray(0, 40) },
    { name: "NUL in a field", status: 400, message: /NUL character/, ...multipart([["format", "jsonl\u0000"], ["files", "{}", "a.jsonl"]]) },
    { name: "NUL in the annotator", status: 400, message: /NUL character/, ...multipart([["format", "jsonl"], ["annotator", "ann\u0000"], ["files", "{}", "a.jsonl"]]) },
    { name: "NUL in a field name", status: 400, message: /NUL character/, ...multipart([["for\u0000mat", "jsonl"]]) },
    { name: "5 MiB upload over the 4 MiB limit", status: 413, message: /larger than/, ...multipart([["format", "jsonl"], ["files", "x".repeat(5 * MIB), "big.jsonl"]]) },
    { name: "foreign Origin", status: 403, message: foreign, headers: { ...valid.headers, origin: "https://evil.example" }, body: valid.body },
    { name: "sibling subdomain", status: 403, message: foreign, headers: { ...valid.headers, origin: base.replace("://", "://evil."), "sec-fetch-site": "same-site" }, body: valid.body },
    { name: "cross-site fetch metadata", status: 403, message: foreign, headers: { ...valid.headers, "sec-fetch-site": "cross-site" }, body: valid.body },
    { name: "null Origin", status: 403, message: foreign, headers: { ...valid.headers, origin: "null" }, body: valid.body },
  ];
}

async function signedIn(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await browser.newPage();
  await signIn(page, account);
  return page;
}

async function expectRefused(request: APIRequestContext, url: string, c: Case, label: string, method = "POST"): Promise<void> {
  const response = await request.fetch(url, { method, headers: c.headers, data: c.body, failOnStatusCode: false });
  const text = await response.text();
  expect(response.status(), `${label}: ${text.slice(0, 200)}`).toBe(c.status);
  const body = JSON.parse(text) as { error: string; code: string };
  expect(body.error, label).toMatch(c.message);
  expect(text, label).not.toMatch(DATABASE_TEXT);
}

test("about 500 malformed and cross-site requests to every state-changing route get their specific 4xx and write nothing", async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const change = await demoChange({ index: 3 });
  const own = await assignmentFor("hardening", "CLAIM_VERIFICATION", change.id);
  const claim = change.pseudoReferences.find((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION")!;
  const annotator = await signedIn(browser, own.account);
  const lead = await signedIn(browser, E2E_ACCOUNTS.lead);

  const params: Record<string, string> = { assignmentId: own.assignmentId, slug: "demo", runId: "no-such-run" };
  const validBodies: Record<string, string> = {
    "/api/annotations": JSON.stringify({ kind: "judgement", assignmentId: own.assignmentId, targetId: claim.id, baseVersion: 0, value: { code: "INCORRECT", necessary: null, errorType: null, note: "cross-site" } }),
    "/api/annotations/assignments/[assignmentId]/skip": JSON.stringify({ reason: "cross-site skip" }),
    "/api/annotations/assignments/[assignmentId]/time": JSON.stringify({ deltaMs: 1000 }),
    "/api/studies/[slug]/metric-runs": JSON.stringify({ metrics: ["bleu-gradedreviews"] }),
  };
  const routes = stateChangingRoutes();
  expect(routes.map(([, p]) => p)).toEqual(expect.arrayContaining(["/api/annotations", "/api/studies/[slug]/import", "/api/annotations/assignments/[assignmentId]/submit"]));

  const before = await databaseState();
  let sent = 0;
  for (const [method, template, multipartOnly] of routes) {
    const url = template.replace(/\[(\w+)\]/g, (_, name: string) => {
      expect(params[name], `no value for route parameter ${name} of ${template}: add it to this test`).toBeDefined();
      return params[name];
    });
    const cases = multipartOnly ? multipartCases(baseURL!) : jsonCases(baseURL!, validBodies[template] ?? "{}");
    for (const [who, page] of [["annotator", annotator], ["lead", lead]] as const) {
      for (const c of cases) {
        await expectRefused(page.request, url, c, `${who} ${method} ${template} ${c.name}`, method);
        sent++;
      }
    }
  }
  // next-auth's own routes and a sign-in from another site
  for (const c of jsonCases(baseURL!, "{}").filter((c) => c.status === 403)) {
    await expectRefused(lead.request, "/api/auth/callback/credentials", { ...c, headers: { ...c.headers, "content-type": "application/x-www-form-urlencoded" }, body: Buffer.from(`email=${encodeURIComponent(E2E_ACCOUNTS.lead.email)}&password=${encodeURIComponent(E2E_ACCOUNTS.lead.password)}`) }, `sign-in ${c.name}`);
    sent++;
  }
  console.log(`${sent} malformed or cross-site requests refused`);
  expect(sent).toBeGreaterThanOrEqual(450);
  expect(await databaseState()).toEqual(before);

  // The same valid bodies from this site's own origin do get through (so the refusals above were not about the body).
  const saved = await annotator.request.post("/api/annotations", { headers: { "content-type": "application/json", origin: baseURL!, "sec-fetch-site": "same-origin" }, data: Buffer.from(validBodies["/api/annotations"]) });
  expect(saved.status(), await saved.text()).toBe(200);
  await annotator.close();
  await lead.close();
});

test("an import file with NUL or lone surrogates is refused with file and line before the database", async ({ browser }) => {
  const lead = await signedIn(browser, E2E_ACCOUNTS.lead);
  const before = await databaseState();
  const line = (text: string) => JSON.stringify({ id: "nul-change", diff: "@@ -1 +1 @@\n-a\n+b\n", reviews: [{ id: "r1", system: "s", text }] }).replace("TEXT", text);
  for (const [content, why] of [
    [`${line("TEXT")}\n`.replace("TEXT", "\\u0000"), /line 1.*NUL/s],
    [`\n${line("TEXT")}\n`.replace("TEXT", "a\\udc00"), /line 2.*surrogate/s],
    [`${line("ok")}\u0000\n`, /line 1.*NUL/s],
  ] as const) {
    const form = multipart([["format", "jsonl"], ["files", content, "bad.jsonl"]]);
    const response = await lead.request.post("/api/studies/demo/import", { headers: form.headers, data: form.body });
    const text = await response.text();
    expect(response.status(), text).toBe(200);
    const result = text.trim().split("\n").map((l) => JSON.parse(l) as { result?: { status: string; errors: { file: string; line?: number; message: string }[] } }).find((l) => l.result)!.result!;
    expect(result.status, text).toBe("refused");
    expect(result.errors.map((e) => `${e.file} line ${e.line}: ${e.message}`).join("\n")).toMatch(why);
    expect(text).not.toMatch(DATABASE_TEXT);
  }
  expect(await databaseState()).toEqual(before);
  await lead.close();
});

test("a server action posted from another origin is refused with 403; NUL input gets a clear error; nothing changes", async ({ browser, baseURL }) => {
  const lead = await signedIn(browser, E2E_ACCOUNTS.lead);
  await lead.goto("/studies/demo/assignments");
  const captured = lead.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await lead.getByRole("button", { name: "Save settings" }).click();
  const action = await captured;
  await expect(lead.getByText("Settings saved.")).toBeVisible();
  const study = () => testDb().study.findUniqueOrThrow({ where: { slug: "demo" } });
  const settings = await study();
  const forged = (action.postData() ?? "").replace(/"annotatorsPerItem":\d+/, '"annotatorsPerItem":7');
  expect(forged).toContain('"annotatorsPerItem":7');
  const replay = (headers: Record<string, string>, data = forged) =>
    lead.request.post(action.url(), { headers: { "next-action": action.headers()["next-action"], "content-type": action.headers()["content-type"] ?? "text/plain;charset=UTF-8", accept: "text/x-component", ...headers }, data, failOnStatusCode: false });

  const before = await databaseState();
  const foreign: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: baseURL!.replace("://", "://evil."), "sec-fetch-site": "same-site" }, { "sec-fetch-site": "cross-site" }, { origin: "null" }];
  for (const headers of foreign) {
    const response = await replay(headers);
    const text = await response.text();
    expect(response.status(), JSON.stringify(headers)).toBe(403);
    expect(text).toMatch(/another (origin|site)/);
  }
  const nul = await replay({ origin: baseURL! }, forged.replace(/"slug":"demo"/, '"slug":"de\\u0000mo"'));
  const nulText = await nul.text();
  expect(nulText).toMatch(/slug: contains a NUL character/);
  expect(nulText).not.toMatch(DATABASE_TEXT);
  expect(await databaseState()).toEqual(before);
  expect((await study()).annotatorsPerItem).toBe(settings.annotatorsPerItem);

  // From the site's own origin the same replay is accepted: the refusals were about the origin.
  expect((await replay({ origin: baseURL! })).status()).toBe(200);
  expect((await study()).annotatorsPerItem).toBe(7);
  await testDb().study.update({ where: { id: settings.id }, data: { annotatorsPerItem: settings.annotatorsPerItem } });
  await lead.close();
});

/** Action bodies Next would decode and fail on (answering 500), each with the status it gets instead. */
function actionCases(): { name: string; status: number; message: RegExp; contentType?: string; body: Buffer }[] {
  const text = (name: string, body: string, status = 400, message = /a text starting with "\$"/) => ({ name, status, message, body: Buffer.from(body, "utf8") });
  const references = ["$1", "$@1", "$Q1", "$W1", "$K1", "$B1", "$h1", "$F1", "$T", "$R1", "$r1", "$X1", "$i1", "$A1", "$n12x", "$Z", "$"];
  return [
    text("a template ${7*7}", '[{"slug":"${7*7}","on":true}]'),
    ...references.map((ref) => text(`reference ${ref}`, JSON.stringify([{ slug: "demo", name: ref }]))),
    text("a reference deep inside", JSON.stringify([{ slug: "demo", decisions: [{ a: { b: ["$1"] } }] }])),
    text("a reference as the argument", '["$1"]'),
    { ...text("a reference sent as application/json", '["$Q2"]'), contentType: "application/json" },
    text("not an argument list", '{"slug":"demo"}', 400, /must be a JSON array/),
    text("a bare string", '"demo"', 400, /must be a JSON array/),
    text("truncated JSON", '[{"slug":', 400, /not valid JSON/),
    text("empty body", "", 400, /not valid JSON/),
    text("1001 arguments", JSON.stringify(Array(1001).fill(0)), 400, /at most 1000 arguments/),
    text("nested 40 deep", `${"[".repeat(40)}${"]".repeat(40)}`, 400, /nested deeper/),
    { name: "invalid UTF-8", status: 400, message: /not valid UTF-8/, body: Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]) },
    text("1 MiB + 1 body", `["${"x".repeat(MIB - 3)}"]`, 413, /larger than/),
    text("3 MiB body", `["${"x".repeat(3 * MIB)}"]`, 413, /larger than/),
    { ...text("multipart", '--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n["$1"]\r\n--x--\r\n', 415, /not multipart/), contentType: "multipart/form-data; boundary=x" },
  ];
}

/** Query strings and path parts holding a NUL or an encoded lone surrogate, for `url` (a path without a query). */
function urlCases(url: string): { name: string; url: string; message: RegExp }[] {
  const nul = /NUL character/;
  const utf8 = /not valid UTF-8/;
  const last = url.lastIndexOf("/");
  const segment = (insert: string) => `${url.slice(0, last + 1)}${url.slice(last + 1) || "x"}${insert}`;
  return [
    { name: "NUL in a value", url: `${url}?itemSet=%00`, message: nul },
    { name: "NUL inside a value", url: `${url}?resamples=0&itemSet=gold%00set`, message: nul },
    { name: "NUL in a name", url: `${url}?item%00Set=1`, message: nul },
    { name: "lone high surrogate", url: `${url}?itemSet=%ED%A0%80`, message: utf8 },
    { name: "lone low surrogate", url: `${url}?set=a%ED%B0%80b`, message: utf8 },
    { name: "broken byte", url: `${url}?annotator=%FF`, message: utf8 },
    { name: "NUL in the path", url: segment("%00"), message: nul },
    { name: "lone surrogate in the path", url: segment("%ED%A0%80"), message: utf8 },
  ];
}

test("over 1,000 malformed calls to every server action, page and GET route: undecodable arguments 400, oversized bodies 413, NUL or lone surrogates in a URL 400; never a 500, nothing written", async ({ browser, baseURL }) => {
  test.setTimeout(600_000);
  const lead = await signedIn(browser, E2E_ACCOUNTS.lead);
  const demo = await demoChange({ index: 0 });
  const own = await assignmentFor("url-hardening", "CLAIM_VERIFICATION", demo.id);
  const values: Record<string, string> = { slug: "demo", assignmentId: own.assignmentId, codeChangeId: demo.id, annotatorId: own.accountId, itemId: demo.id, task: "COMMENT_FILTERING", runId: "no-such-run", nextauth: "session", pullRequestId: encodeURIComponent("shop-api#118") };
  const fill = (template: string) =>
    template.replace(/\[(?:\.\.\.)?(\w+)\]/g, (_, name: string) => {
      expect(values[name], `no value for the URL parameter ${name} of ${template}: add it to this test`).toBeDefined();
      return values[name];
    });
  const before = await databaseState();
  const failures: string[] = [];
  let sent = 0;
  const check = async (label: string, response: Awaited<ReturnType<APIRequestContext["fetch"]>>, status: number, message: RegExp) => {
    sent++;
    const text = await response.text();
    const error = (() => {
      try {
        return (JSON.parse(text) as { error?: string }).error ?? "";
      } catch {
        return "";
      }
    })();
    if (response.status() !== status || !message.test(error) || DATABASE_TEXT.test(text)) failures.push(`${label}: ${response.status()} ${text.slice(0, 160)}`);
  };

  const actions = [...builtActions()];
  expect(actions.length).toBeGreaterThanOrEqual(20);
  for (const [key, action] of actions) {
    // Posted to a page whose bundle holds the action, so that Next would decode its arguments.
    const page = fill(action.pages[0]);
    for (const c of actionCases()) {
      const response = await lead.request.post(page, {
        headers: { "next-action": action.id, "content-type": c.contentType ?? "text/plain;charset=UTF-8", accept: "text/x-component", origin: baseURL! },
        data: c.body,
        failOnStatusCode: false,
      });
      await check(`${key} ${c.name}`, response, c.status, c.message);
    }
  }
  // A form posted to a page without scripts names the action in its fields, and Next decodes it too.
  for (const [key, action] of actions) {
    const page = fill(action.pages[0]);
    const fields = [
      [`$ACTION_ID_${action.id}`, ""],
      ["$ACTION_REF_1", ""],
      ["$ACTION_1:0", JSON.stringify({ id: action.id, bound: "$@1" })],
    ];
    const body = `${fields.map(([name, value]) => `--x\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("")}--x--\r\n`;
    const response = await lead.request.post(page, { headers: { "content-type": "multipart/form-data; boundary=x", origin: baseURL! }, data: Buffer.from(body), failOnStatusCode: false });
    await check(`${key} posted as a form`, response, 415, /not multipart/);
  }
  const urls = [...existingPages(), ...existingRoutes().filter((r) => r.startsWith("GET ")).map((r) => r.slice(4))].map(fill);
  expect(urls).toEqual(expect.arrayContaining(["/api/studies/demo/agreement", "/studies/demo/agreement", "/annotate"]));
  for (const url of urls)
    for (const c of urlCases(url)) {
      const response = await lead.request.get(c.url, { failOnStatusCode: false, maxRedirects: 0 });
      await check(`GET ${c.url} (${c.name})`, response, 400, c.message);
    }
  console.log(`${sent} malformed server action calls and URLs refused`);
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThanOrEqual(1000);
  expect(await databaseState()).toEqual(before);

  // A NUL in a query parameter, and the same route with a well-formed parameter (the refusal was about the text).
  expect((await lead.request.get("/api/studies/demo/agreement?itemSet=%00")).status()).toBe(400);
  expect((await lead.request.get("/api/studies/demo/agreement?resamples=0")).status()).toBe(200);
  await lead.close();
});

test("text starting with $ typed into a real form reaches the action as typed (React sends it as $$…)", async ({ browser }) => {
  const admin = await signedIn(browser, E2E_ACCOUNTS.admin);
  await admin.goto("/admin/accounts");
  const account = { email: `dollar-${Date.now()}@e2e.test`, name: "${7*7} budget", password: "$1ecret-password" };
  const form = admin.getByRole("form", { name: "Create account" });
  await form.getByLabel("Email").fill(account.email);
  await form.getByLabel("Name").fill(account.name);
  await form.getByLabel("Password").fill(account.password);
  const sent = admin.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]);
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByRole("status")).toHaveText("Account created.");
  const body = (await sent).postData() ?? "";
  expect(body).toContain('"$${7*7} budget"');
  expect(body).toContain('"$$1ecret-password"');
  expect(await testDb().account.findUniqueOrThrow({ where: { email: account.email }, select: { name: true } })).toEqual({ name: account.name });
  const annotator = await signedIn(browser, account);
  await expect(annotator.getByTestId("current-account")).toBeVisible();
  await Promise.all([admin.close(), annotator.close()]);
});

test("/signin sends CSP with a fresh nonce, nosniff, anti-framing and referrer headers; HSTS only over https", async ({ request }) => {
  const first = await request.get("/signin");
  const second = await request.get("/signin");
  const headers = first.headers();
  const csp = headers["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("unsafe-eval");
  expect(headers).toMatchObject({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "same-origin" });
  expect(headers["strict-transport-security"]).toBeUndefined();
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  expect(second.headers()["content-security-policy"]).not.toContain(nonce);
  // Next puts the nonce on its inline scripts
  const html = await first.text();
  expect(html).toContain(`nonce="${nonce}"`);
  expect(html.match(/<script(?![^>]*nonce=)[^>]*>/g) ?? []).toEqual([]);

  const behindTls = await request.get("/signin", { headers: { "x-forwarded-proto": "https" } });
  expect(behindTls.headers()["strict-transport-security"]).toMatch(/max-age=\d+/);
  for (const path of ["/api/health", "/api/studies", "/no-such-page"]) expect((await request.get(path)).headers()["x-content-type-options"], path).toBe("nosniff");
});

test("/api/health tells anonymous callers only ok", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});

test("signing in and using the workspace and dashboards raises no CSP violation or page error", async ({ browser }) => {
  test.setTimeout(180_000);
  const change = await demoChange({ index: 2 });
  const own = await assignmentFor("csp", "CLAIM_VERIFICATION", change.id);
  for (const [account, paths] of [
    [E2E_ACCOUNTS.lead, ["/", "/studies/demo", "/studies/demo/agreement", "/studies/demo/validity", "/studies/demo/assignments", "/studies/demo/metrics", "/studies/demo/import", "/admin/accounts"]],
    [own.account, ["/annotate", `/annotate/${own.assignmentId}`]],
  ] as const) {
    const page = await browser.newPage();
    const errors = watchPageErrors(page);
    await signIn(page, account);
    for (const path of paths) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBeLessThan(400);
      // hydrated (dashboards keep polling, so no network-idle wait)
      await page.waitForLoadState("load");
      await expect(page.locator("body")).toBeVisible();
    }
    expect(errors).toEqual([]);
    await page.close();
  }
});
