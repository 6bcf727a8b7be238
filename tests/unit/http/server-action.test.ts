/** Server action bodies Next could not decode: refused before it tries (lib/http/server-action.ts). */
import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors";
import { actionArgumentsProblem, checkActionRequest, isActionRequest } from "@/lib/http/server-action";

const action = (body: BodyInit, contentType = "text/plain;charset=UTF-8") => new Request("http://127.0.0.1:3000/studies/demo", { method: "POST", body, headers: { "next-action": "00ab", "content-type": contentType } });

async function status(request: Request): Promise<number | "passes"> {
  return checkActionRequest(request).then(
    () => "passes" as const,
    (error: unknown) => (error instanceof AppError ? error.status : Promise.reject(error)),
  );
}

describe("server action arguments", () => {
  test("what React's client sends for plain values passes: $$-escaped text, undefined, NaN, ±Infinity, -0, dates, bigints", () => {
    for (const text of [
      '[{"slug":"demo","on":true}]',
      '[{"name":"$$7 budget","note":"$$$$"}]',
      '[{"a":"$undefined","b":"$NaN","c":"$Infinity","d":"$-Infinity","e":"$-0"}]',
      '[{"when":"$D2025-01-01T00:00:00.000Z","n":"$n-12345678901234567890"}]',
      "[]",
      '[{"text":"a $ in the middle","nested":[[{"deep":"fine"}]]}]',
    ])
      expect(actionArgumentsProblem(text), text).toBeNull();
  });

  test("references a text body cannot hold, and bodies that are not an argument list, are named", () => {
    expect(actionArgumentsProblem('[{"slug":"${7*7}","on":true}]')).toMatch(/^0\.slug: a text starting with "\$"/);
    for (const text of ['["$1"]', '["$@0"]', '["$Q1"]', '["$W1"]', '["$K1"]', '["$B1"]', '["$h1"]', '["$T"]', '["$R1"]', '["$i1"]', '["$n12a"]', '["$nan"]', '["$"]', '[{"a":["$F1"]}]'])
      expect(actionArgumentsProblem(text), text).toMatch(/a text starting with "\$"/);
    expect(actionArgumentsProblem("[1,")).toMatch(/not valid JSON/);
    expect(actionArgumentsProblem('{"slug":"demo"}')).toMatch(/must be a JSON array/);
    expect(actionArgumentsProblem('"demo"')).toMatch(/must be a JSON array/);
    expect(actionArgumentsProblem(JSON.stringify(Array(1001).fill(0)))).toMatch(/at most 1000 arguments/);
    expect(actionArgumentsProblem("[".repeat(100_000) + "]".repeat(100_000))).toMatch(/nested deeper/);
  });

  test("requests: over 1 MiB is 413, multipart 415, undecodable 400; form-encoded is left to Next", async () => {
    expect(await status(action('[{"slug":"demo"}]'))).toBe("passes");
    expect(await status(action(`[{"text":"${"x".repeat(1024 * 1024)}"}]`))).toBe(413);
    expect(await status(action("--x\r\n", "multipart/form-data; boundary=x"))).toBe(415);
    expect(await status(action('["${7*7}"]'))).toBe(400);
    expect(await status(action(new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d])))).toBe(400);
    expect(await status(action("a=1", "application/x-www-form-urlencoded"))).toBe("passes");
  });

  test("action requests: those with a Next-Action header, and multipart posts to a page (a form without scripts); not route handlers' uploads", () => {
    const request = (path: string, headers: Record<string, string>, method = "POST") => new Request(`http://127.0.0.1:3000${path}`, { method, headers, body: method === "POST" ? "x" : undefined });
    expect(isActionRequest(request("/studies/demo", { "next-action": "00ab", "content-type": "text/plain" }))).toBe(true);
    expect(isActionRequest(request("/studies/demo", { "content-type": "multipart/form-data; boundary=x" }))).toBe(true);
    expect(isActionRequest(request("/api/studies/demo/import", { "content-type": "multipart/form-data; boundary=x" }))).toBe(false);
    expect(isActionRequest(request("/studies/demo", { "content-type": "application/x-www-form-urlencoded" }))).toBe(false);
    expect(isActionRequest(request("/studies/demo", { "next-action": "00ab" }, "GET"))).toBe(false);
  });
});
