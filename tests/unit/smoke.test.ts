import { expect, test } from "vitest";
import { sharedPath } from "../shared-data";

test("shared path resolves next to the project", () => {
  expect(sharedPath("reference")).toMatch(/shared[\\/]reference$/);
});
