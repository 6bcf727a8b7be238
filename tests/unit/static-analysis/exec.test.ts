/**
 * A line process (pylint's drivers): each line written is answered by the child's next line, in
 * order; a child that ends without answering, or cannot start, rejects what was asked with its
 * own error text.
 */
import { expect, test } from "vitest";
import { startLineProcess } from "@/lib/static-analysis/exec";

const node = (script: string) => startLineProcess(process.execPath, ["-e", script]);

test("each line is answered by the child's next line, in order, and end waits for the child's exit", async () => {
  const child = node(`require("readline").createInterface({ input: process.stdin }).on("line", (l) => console.log(l.toUpperCase()));`);
  expect(await Promise.all([child.ask("first"), child.ask("second")])).toEqual(["FIRST", "SECOND"]);
  expect(await child.ask("third")).toBe("THIRD");
  await child.end();
});

test("a child that ends without answering rejects the question with its exit code and error text", async () => {
  const child = node(`require("readline").createInterface({ input: process.stdin }).once("line", (l) => { console.log(l); console.error("no more lines here"); process.exit(3); });`);
  expect(await child.ask("one")).toBe("one");
  await expect(child.ask("two")).rejects.toThrow(/exit 3.*no more lines here/);
  await child.end();
  await expect(child.ask("three")).rejects.toThrow(/exit 3/);
});

test("a program that is not installed rejects the question", async () => {
  const child = startLineProcess("/nonexistent/crjudge-analyzer", []);
  await expect(child.ask("x")).rejects.toThrow(/is not installed/);
  await child.end();
});
