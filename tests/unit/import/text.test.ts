import { describe, expect, test } from "vitest";
import { decodeUtf8, integerId, sameText, textKey } from "@/lib/import/text";

describe("decodeUtf8", () => {
  test("drops a byte-order mark", () => {
    expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ ok: true, text: "a" });
  });

  test("refuses UTF-16 with a clear message", () => {
    const result = decodeUtf8(new Uint8Array([0xff, 0xfe, 0x61, 0x00]));
    expect(result).toMatchObject({ ok: false, line: 1, message: expect.stringMatching(/UTF-16/) });
  });

  test("names the line and byte of the first invalid UTF-8 sequence (Latin-1 é)", () => {
    const bytes = Buffer.concat([Buffer.from("id,claim\n1,ok\n2,caf"), Buffer.from([0xe9]), Buffer.from("\n")]);
    expect(decodeUtf8(bytes)).toEqual({ ok: false, line: 3, message: "not valid UTF-8 (byte 0xE9 at offset 19); save the file as UTF-8" });
  });
});

describe("text identity", () => {
  test("whitespace differences do not matter (a sheet with expanded tabs)", () => {
    expect(sameText("if x:\n \t\tpass ", "if x:\n         pass")).toBe(true);
    expect(sameText("a b", "ab")).toBe(false);
    expect(textKey("The claim.\n")).toBe(textKey(" The  claim."));
    expect(textKey("The claim.")).not.toBe(textKey("The claim!"));
  });

  test("integer ids as spreadsheets write them", () => {
    expect(integerId("15764")).toBe("15764");
    expect(integerId("15764.0")).toBe("15764");
    expect(integerId(" 007 ")).toBe("7");
    expect(integerId("12345678901234567890")).toBe("12345678901234567890");
    expect(integerId("1.5")).toBeNull();
    expect(integerId("")).toBeNull();
  });
});
