/** Moving on after a decision: the next open disagreement, and how an item's ratings split. */
import { expect, test } from "vitest";
import { nextAfter } from "@/lib/annotation/next-after";
import { ratingSplit, splitText } from "@/lib/tasks/consensus";

const items = ["a", "b", "c", "d"].map((id) => ({ id, open: id !== "c" }));

test("the next wanted item after the current one, wrapping around, never the current one", () => {
  expect(nextAfter(items, "b", (i) => i.open)?.id).toBe("d");
  expect(nextAfter(items, "d", (i) => i.open)?.id).toBe("a");
  expect(nextAfter([items[0]], "a")).toBeNull();
  // the current item just left the list (decided): the first one left
  expect(nextAfter(items.slice(1), "a", (i) => i.open)?.id).toBe("b");
});

test("ratings split: agreement, a majority, a tie", () => {
  expect(ratingSplit([3, 3])).toMatchObject({ unanimous: true, tie: false });
  expect(splitText(ratingSplit([3, 3]))).toBe("unanimous");
  expect(ratingSplit([3, 2, 3])).toEqual({ counts: [{ value: 3, count: 2 }, { value: 2, count: 1 }], unanimous: false, tie: false });
  expect(splitText(ratingSplit([3, 2, 3]))).toBe("2–1");
  expect(splitText(ratingSplit(["CORRECT", "INCORRECT"]))).toBe("tie 1–1");
  expect(ratingSplit([4])).toMatchObject({ unanimous: false, tie: false });
});
