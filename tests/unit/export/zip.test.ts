import JSZip from "jszip";
import { describe, expect, test } from "vitest";
import { zipFolder } from "@/lib/export/zip";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Each entry's name and compression method (0 stored, 8 deflated), read from the local file headers (APPNOTE 4.3.7). */
function methods(zip: Uint8Array): Record<string, number> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const found: Record<string, number> = {};
  for (let at = 0; view.getUint32(at, true) === 0x04034b50; ) {
    const nameLength = view.getUint16(at + 26, true);
    const name = new TextDecoder().decode(zip.subarray(at + 30, at + 30 + nameLength));
    found[name] = view.getUint16(at + 8, true);
    at += 30 + nameLength + view.getUint16(at + 28, true) + view.getUint32(at + 18, true);
  }
  return found;
}

describe("folder exports as ZIP archives (lib/export/zip.ts)", () => {
  const files = [
    { path: "data/review-rating.parquet", bytes: new Uint8Array([80, 65, 82, 49, 0, 255, 80, 65, 82, 49]) },
    { path: "README.md", bytes: bytes("---\nlicense: mit\n---\n# Study\n".repeat(50)) },
  ];

  test("an independent reader (JSZip) finds every file under the folder with its bytes; the Parquet table is stored, the card deflated", async () => {
    const zip = zipFolder("demo.hf", files);
    const archive = await JSZip.loadAsync(zip);
    const names = Object.values(archive.files).filter((entry) => !entry.dir).map((entry) => entry.name);
    expect(names.sort()).toEqual(["demo.hf/README.md", "demo.hf/data/review-rating.parquet"]);
    for (const file of files) expect(await archive.file(`demo.hf/${file.path}`)!.async("uint8array")).toEqual(file.bytes);
    expect(methods(zip)).toEqual({ "demo.hf/data/review-rating.parquet": 0, "demo.hf/README.md": 8 });
  });

  test("the same files give the same bytes (entries carry a fixed time)", async () => {
    const first = zipFolder("demo.parquet", files);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(Buffer.compare(Buffer.from(zipFolder("demo.parquet", files)), Buffer.from(first))).toBe(0);
  });
});
