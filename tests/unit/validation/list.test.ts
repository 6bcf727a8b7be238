import { expect, test } from "vitest";
import { commaList } from "@/lib/validation/list";

test("a comma-separated list: entries trimmed, empty ones dropped, order kept", () => {
  expect(commaList(" batch-2, batch-1 ,,\tbatch-3 ")).toEqual(["batch-2", "batch-1", "batch-3"]);
  expect(commaList("")).toEqual([]);
  expect(commaList(" , ")).toEqual([]);
});
