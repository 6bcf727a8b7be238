import { describe, expect, test } from "vitest";
import { isTextField, likertFromDigit, resolveKey } from "@/lib/annotation/keymap";
import { shortcutsOf, TASK_LIST } from "@/lib/tasks";

describe("keyboard map", () => {
  test("single keys", () => {
    expect(resolveKey({ key: "j" }).action).toEqual({ type: "next-sub" });
    expect(resolveKey({ key: "ArrowUp" }).action).toEqual({ type: "prev-sub" });
    expect(resolveKey({ key: "n" }).action).toEqual({ type: "next-item" });
    expect(resolveKey({ key: "?" }).action).toEqual({ type: "help" });
    expect(resolveKey({ key: "g" }).action).toEqual({ type: "guidelines" });
    expect(resolveKey({ key: "4" }).action).toEqual({ type: "digit", value: 4 });
    expect(resolveKey({ key: "q" }).action).toBeNull();
  });

  test("Ctrl/Cmd+Enter submits, also inside a text box", () => {
    expect(resolveKey({ key: "Enter", ctrlKey: true }).action).toEqual({ type: "submit" });
    expect(resolveKey({ key: "Enter", metaKey: true, inTextField: true }).action).toEqual({ type: "submit" });
    expect(resolveKey({ key: "Enter" }).action).toBeNull();
  });

  test("no single-key shortcut fires inside a text box; Escape leaves it", () => {
    for (const key of ["j", "k", "n", "1", "0", "?", "g", "-", "e", "x", " ", "s"]) expect(resolveKey({ key, inTextField: true }).action).toBeNull();
    expect(resolveKey({ key: "Escape", inTextField: true }).action).toEqual({ type: "leave-field" });
    // a pending prefix is dropped when typing starts
    expect(resolveKey({ key: "1", inTextField: true }, "-")).toEqual({ action: null, prefix: "" });
  });

  test("browser shortcuts with Ctrl, Cmd or Alt are left alone", () => {
    expect(resolveKey({ key: "1", ctrlKey: true }).action).toBeNull();
    expect(resolveKey({ key: "j", altKey: true }).action).toBeNull();
    expect(resolveKey({ key: "r", metaKey: true }).action).toBeNull();
  });

  test("necessity is one key per answer: y necessary, u not necessary", () => {
    expect(resolveKey({ key: "y" }).action).toEqual({ type: "necessity", necessary: true });
    expect(resolveKey({ key: "u" }).action).toEqual({ type: "necessity", necessary: false });
  });

  test("'-' then a digit types the negative claim codes -1 and -2", () => {
    const armed = resolveKey({ key: "-" });
    expect(armed).toEqual({ action: null, prefix: "-" });
    expect(resolveKey({ key: "1" }, "-").action).toEqual({ type: "digit", value: -1 });
    expect(resolveKey({ key: "2" }, "-").action).toEqual({ type: "digit", value: -2 });
    expect(resolveKey({ key: "3" }, "-")).toEqual({ action: null, prefix: "" });
    expect(resolveKey({ key: "j" }, "-")).toEqual({ action: null, prefix: "" });
  });

  test("'e' then a digit picks an error type", () => {
    expect(resolveKey({ key: "e" }).prefix).toBe("e");
    expect(resolveKey({ key: "3" }, "e").action).toEqual({ type: "error-type", key: 3 });
    expect(resolveKey({ key: "0" }, "e").action).toEqual({ type: "error-type", key: 0 });
    expect(resolveKey({ key: "7" }, "e").action).toBeNull();
  });

  test("a digit's Likert score: itself on the scale, 0 for the top of a scale up to 10, otherwise none", () => {
    expect(likertFromDigit(3, 1, 5)).toBe(3);
    expect(likertFromDigit(6, 1, 5)).toBeNull();
    expect(likertFromDigit(0, 1, 5)).toBeNull();
    expect(likertFromDigit(0, 1, 10)).toBe(10);
    expect(likertFromDigit(9, 1, 10)).toBe(9);
    expect(likertFromDigit(0, 0, 10)).toBe(0);
    expect(likertFromDigit(-1, 1, 5)).toBeNull();
  });

  test("what counts as a text field", () => {
    expect(isTextField({ tagName: "TEXTAREA" })).toBe(true);
    expect(isTextField({ tagName: "INPUT", type: "text" })).toBe(true);
    expect(isTextField({ tagName: "INPUT", type: "number" })).toBe(true);
    expect(isTextField({ tagName: "INPUT", type: "checkbox" })).toBe(false);
    expect(isTextField({ tagName: "SELECT" })).toBe(true);
    expect(isTextField({ tagName: "DIV", isContentEditable: true })).toBe(true);
    expect(isTextField({ tagName: "BUTTON" })).toBe(false);
    expect(isTextField(null)).toBe(false);
  });

  test("the overlay lists every key the map knows (the tasks' own from their descriptors)", () => {
    const listed = TASK_LIST.flatMap((t) => shortcutsOf(t.task)).flatMap((s) => s.keys).join(" ");
    for (const key of ["j", "k", "n", "?", "g", "m", "a", "r", "u", "y", "x", "p", "s", "v", "Ctrl/⌘ + Enter"]) expect(listed).toContain(key);
  });
});
