import { describe, expect, test } from "vitest";
import { urlTextProblem } from "@/lib/http/url-text";

const problem = urlTextProblem;

describe("text in URLs", () => {
  test("ordinary paths and queries pass, non-ASCII text included", () => {
    for (const url of ["/studies/demo/agreement?itemSet=gold&resamples=0", "/api/studies/d%C3%A9mo?q=%E2%9C%93+ok&empty=&flag", "/studies/%F0%9F%98%80", "/?a=%25&b=%2B"]) expect(problem(url), url).toBeNull();
  });

  test("NUL and bytes that are not UTF-8 (an encoded lone surrogate) in a query value, a name or the path are named", () => {
    expect(problem("/api/studies/S/agreement?itemSet=%00")).toBe('The query parameter "itemSet" contains a NUL character (\\u0000).');
    expect(problem("/api/studies/S/agreement?itemSet=%ED%A0%80")).toBe('The query parameter "itemSet" is not valid UTF-8 (a lone surrogate or a broken byte sequence).');
    expect(problem("/x?item%00Set=1")).toMatch(/^A query parameter's name contains a NUL/);
    expect(problem("/x?a=%FF")).toMatch(/not valid UTF-8/);
    expect(problem("/api/studies/de%00mo/agreement")).toMatch(/^A part of the path contains a NUL/);
    expect(problem("/studies/%ED%B0%80/members")).toMatch(/^A part of the path is not valid UTF-8/);
  });
});
