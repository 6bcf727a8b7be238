/** The route wrapper's request checks on real Fetch API requests: origin, content type, size, JSON, text. */
import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors";
import { readBody } from "@/lib/http/body";
import { crossSiteReason } from "@/lib/http/origin";
import { handler } from "@/lib/http/respond";
import { findUnsafeText } from "@/lib/validation/text";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request("http://127.0.0.1:3000/api/x", { method: "POST", body, headers: { host: "127.0.0.1:3000", ...headers } });

async function refusal(work: Promise<unknown>): Promise<[string, string]> {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return [(error as AppError).code, (error as AppError).message];
}

describe("same origin", () => {
  test("own origin, the public URL and non-browser clients pass; other sites do not", () => {
    process.env.NEXTAUTH_URL = "https://judge.example.org";
    expect(crossSiteReason(post(null, { origin: "http://127.0.0.1:3000" }))).toBeNull();
    expect(crossSiteReason(post(null, { origin: "https://judge.example.org", "sec-fetch-site": "same-origin" }))).toBeNull();
    expect(crossSiteReason(post(null))).toBeNull();
    const foreign: Record<string, string>[] = [{ origin: "https://evil.example" }, { origin: "null" }, { origin: "http://127.0.0.1:3001" }, { "sec-fetch-site": "cross-site" }, { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-site" }];
    for (const headers of foreign)
      expect(crossSiteReason(post(null, headers)), JSON.stringify(headers)).toMatch(/another (origin|site)/);
    delete process.env.NEXTAUTH_URL;
  });
});

describe("bodies", () => {
  test("JSON is parsed once; an empty body without a type is undefined", async () => {
    expect(await readBody(post('{"a":[1,"b"]}', { "content-type": "application/json; charset=utf-8" }), "json", 100)).toEqual({ a: [1, "b"] });
    expect(await readBody(post(null), "json", 100)).toBeUndefined();
  });

  test("wrong type 415, too large 413 (declared or streamed), invalid JSON or UTF-8 400", async () => {
    expect(await refusal(readBody(post("a=1", { "content-type": "application/x-www-form-urlencoded" }), "json", 100))).toEqual(["UNSUPPORTED_MEDIA_TYPE", expect.stringContaining("application/json only")]);
    expect((await refusal(readBody(post('{"a":1}', { "content-type": "text/plain" }), "json", 100)))[0]).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect((await refusal(readBody(post("x".repeat(101), { "content-type": "application/json" }), "json", 100)))[0]).toBe("PAYLOAD_TOO_LARGE");
    const chunked = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode("x".repeat(30)));
        controller.close();
      },
    });
    const streamed = new Request("http://127.0.0.1:3000/api/x", { method: "POST", body: chunked, headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit);
    expect((await refusal(readBody(streamed, "json", 100)))[0]).toBe("PAYLOAD_TOO_LARGE");
    expect(await refusal(readBody(post('{"a":', { "content-type": "application/json" }), "json", 100))).toEqual(["INVALID_INPUT", expect.stringMatching(/^The body is not valid JSON: /)]);
    expect(await refusal(readBody(post(new Uint8Array([0x22, 0xff, 0x22]), { "content-type": "application/json" }), "json", 100))).toEqual(["INVALID_INPUT", "The body is not valid UTF-8."]);
  });

  test("NUL and lone surrogates are named by their field path", async () => {
    expect(await refusal(readBody(post('{"value":{"notes":["ok","a\\u0000"]}}', { "content-type": "application/json" }), "json", 1000))).toEqual(["INVALID_INPUT", "value.notes.1: contains a NUL character (\\u0000)"]);
    expect(findUnsafeText({ reason: "a\ud800" })).toBe("reason: contains a lone UTF-16 surrogate (not valid Unicode)");
    expect(findUnsafeText({ reason: "\udc00\ud800" })).toMatch(/surrogate/);
    expect(findUnsafeText({ ok: "emoji 😀 pair", list: ["é", 1, null] })).toBeNull();
    expect(findUnsafeText({ "k\u0000": 1 })).toBe("k\u0000: the field name contains a NUL character (\\u0000)");
  });

  test("multipart: fields checked, a broken form is 400", async () => {
    const form = new FormData();
    form.set("format", "jsonl");
    form.set("files", new File(["{}"], "a.jsonl"));
    const parsed = await readBody(new Request("http://127.0.0.1:3000/api/x", { method: "POST", body: form }), "multipart", 10_000);
    expect(parsed.get("format")).toBe("jsonl");
    const bad = new FormData();
    bad.set("annotator", "x\u0000");
    expect(await refusal(readBody(new Request("http://127.0.0.1:3000/api/x", { method: "POST", body: bad }), "multipart", 10_000))).toEqual(["INVALID_INPUT", "annotator: contains a NUL character (\\u0000)"]);
    expect((await refusal(readBody(post("--x\r\n", { "content-type": "multipart/form-data; boundary=y" }), "multipart", 10_000)))[0]).toBe("INVALID_INPUT");
  });

  test("the wrapper answers each refusal with its status and never runs the route", async () => {
    let ran = 0;
    const route = handler(async () => {
      ran++;
      return new Response("ok");
    });
    const statuses = [
      (await route(post('{"a":1}', { "content-type": "application/json", origin: "https://evil.example" }), {})).status,
      (await route(post("<a/>", { "content-type": "application/xml" }), {})).status,
      (await route(post("x".repeat(1024 * 1024 + 1), { "content-type": "application/json" }), {})).status,
      (await route(post('{"a":"\\ud800"}', { "content-type": "application/json" }), {})).status,
    ];
    expect(statuses).toEqual([403, 415, 413, 400]);
    expect(ran).toBe(0);
    expect((await route(new Request("http://127.0.0.1:3000/api/x"), {})).status).toBe(200);
  });
});
