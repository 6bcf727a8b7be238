/**
 * DataTable, rendered on the server as a page renders it: its accessible markup (caption, column
 * headers with their scope, sort buttons only where a column sorts), cells, empty state and
 * footer; the sortable table's order; and, read from the sources, that every table of the product
 * is a DataTable but for the listed exceptions.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { DataTable } from "@/components/dashboard/data-table";
import { compareSortKeys } from "@/components/dashboard/sortable-table";
import { content, count, num, progress, type TableData, text } from "@/components/dashboard/table-data";
import { sourceFiles } from "../import-graph";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const render = (table: TableData) => renderToStaticMarkup(createElement(DataTable, { table }));
/** The elements named `tag` in the markup, each as its opening tag and its text (markup stripped). */
const elements = (html: string, tag: string) =>
  [...html.matchAll(new RegExp(`(<${tag}(?:\\s[^>]*)?>)([\\s\\S]*?)</${tag}>`, "g"))].map((m) => ({ open: m[1], inner: m[2], text: m[2].replace(/<[^>]+>/g, "") }));
const section = (html: string, tag: string) => elements(html, tag)[0]?.inner ?? "";

const people: TableData = {
  id: "people",
  title: "People",
  filename: "people",
  columns: [
    { key: "name", label: "Name", sortable: true },
    { key: "items", label: "Items", numeric: true, sortable: true },
    { key: "kappa", label: "Kappa", numeric: true },
    { key: "actions", label: "Actions", end: true },
  ],
  rows: [
    { key: "b", data: { testid: "person" }, tone: "warn", cells: [text("bob", { href: "/p/b" }), count(12), num(0.5), content(createElement("button", { type: "button" }, "Pause"))] },
    { key: "a", id: "person-a", cells: [text("alice"), count(3), num(null), content(null)] },
  ],
  foot: [{ key: "total", cells: [text("All"), count(15), text(""), text("")] }],
};

describe("DataTable", () => {
  test("a caption with the title and the CSV button, column headers with scope, sort buttons on the sortable columns only", () => {
    const html = render(people);
    const [table] = elements(html, "table");
    expect(table.open).toContain('data-testid="people"');
    expect(table.open).toContain('aria-labelledby="people-title"');
    const caption = section(html, "caption");
    expect(caption).toMatch(/<span[^>]*id="people-title"[^>]*>People<\/span>/);
    expect(caption).toContain('aria-label="Download CSV: People"');
    const headers = elements(section(html, "thead"), "th");
    expect(headers.map((th) => /scope="col"/.test(th.open))).toEqual([true, true, true, true]);
    // The sort arrow is hidden from assistive technology: the button is named by the label alone.
    expect(headers.map((th) => th.inner.replace(/<span aria-hidden="true"[^>]*>[^<]*<\/span>/g, "").replace(/<[^>]+>/g, ""))).toEqual(["Name", "Items", "Kappa", "Actions"]);
    expect(headers[0].inner).toMatch(/<span aria-hidden="true"[^>]*>↕<\/span>/);
    expect(headers.map((th) => th.inner.includes("<button"))).toEqual([true, true, false, false]);
    // Unsorted until a header is pressed: no column claims an order.
    expect(headers.some((th) => th.open.includes("aria-sort"))).toBe(false);
  });

  test("rows in the given order with their cells, tones, ids and data attributes; the footer apart from the body", () => {
    const html = render(people);
    const rows = elements(section(html, "tbody"), "tr");
    expect(rows.map((tr) => /data-row="(\w+)"/.exec(tr.open)?.[1])).toEqual(["b", "a"]);
    expect(rows[0].open).toContain('data-testid="person"');
    expect(rows[0].open).toContain("bg-amber-50");
    expect(rows[1].open).toContain('id="person-a"');
    const cells = elements(rows[0].inner, "td");
    expect(cells.map((td) => td.text)).toEqual(["bob", "12", "0.5000", "Pause"]);
    expect(cells[0].inner).toContain('href="/p/b"');
    expect(cells[1].open).toContain("text-right");
    expect(cells[3].open).toContain("text-right");
    expect(elements(rows[1].inner, "td")[2].open).toContain('data-value="null"');
    expect(elements(section(html, "tfoot"), "td").map((td) => td.text)).toEqual(["All", "15", "", ""]);
  });

  test("without rows, the empty state across every column; without a title, a caption for assistive technology only and no CSV", () => {
    const html = render({ label: "Members", columns: people.columns, rows: [], empty: "No members yet." });
    const [caption] = elements(html, "caption");
    expect(caption.text).toBe("Members");
    expect(caption.open).toContain("sr-only");
    expect(html).not.toContain("Download CSV");
    const body = elements(section(html, "tbody"), "td");
    expect(body).toHaveLength(1);
    expect(body[0].text).toBe("No members yet.");
    expect(body[0].open).toContain('colSpan="4"');
    expect(section(html, "tbody")).not.toContain("data-row");
  });

  test("a table without a sortable column renders no button in its header", () => {
    const html = render({ label: "Plain", columns: [{ key: "a", label: "A" }], rows: [{ key: "1", cells: [text("x")] }] });
    expect(section(html, "thead")).not.toContain("<button");
    expect(elements(html, "th")[0].open).toContain('scope="col"');
  });
});

describe("sorting", () => {
  const sorted = (keys: (number | string | null)[], direction: "ascending" | "descending") => [...keys].sort((a, b) => compareSortKeys(a, b, direction));

  test("numbers by value, text in natural order, both ways", () => {
    expect(sorted([10, 2, 33, -1], "ascending")).toEqual([-1, 2, 10, 33]);
    expect(sorted([10, 2, 33, -1], "descending")).toEqual([33, 10, 2, -1]);
    expect(sorted(["item 10", "item 2", "Item 1"], "ascending")).toEqual(["Item 1", "item 2", "item 10"]);
  });

  test("undefined values last in either direction", () => {
    expect(sorted([null, 0.4, null, 0.9], "ascending")).toEqual([0.4, 0.9, null, null]);
    expect(sorted([null, 0.4, null, 0.9], "descending")).toEqual([0.9, 0.4, null, null]);
  });
});

/**
 * Tables that are not data tables, and why; every other table is a DataTable (one look, caption,
 * header scope, empty state, CSV where it is a figure).
 */
const NOT_DATA_TABLES: Record<string, string> = {
  "components/dashboard/data-table.tsx": "DataTable itself",
  "components/dashboard/sortable-table.tsx": "DataTable's table when a column sorts",
  "components/workspace/markdown.tsx": "a table written in the Markdown of a study's guidelines, rendered as written",
  "components/workspace/rating-task.tsx": "a grid of the workspace's controls, the keyboard's cursor moving from row to row",
};

test("every table in app/ and components/ is a DataTable, but for the listed exceptions", () => {
  const handWritten = sourceFiles(ROOT, ["app", "components"]).filter((file) => file.endsWith(".tsx") && /<table[\s>]/.test(readFileSync(path.join(ROOT, file), "utf8")));
  expect(handWritten, "a new table: use DataTable (components/dashboard/data-table.tsx), or list it here with the reason").toEqual(Object.keys(NOT_DATA_TABLES).sort());
});

describe("a run's progress cell", () => {
  test("a bar of done of total, its value the done fraction (1 when there is nothing to do), for the CSV", () => {
    expect(progress(3, 4)).toEqual({ text: "3/4", value: 0.75, progress: { done: 3, total: 4 } });
    expect(progress(0, 0).value).toBe(1);
    const html = renderToStaticMarkup(createElement(DataTable, { table: { columns: [{ key: "progress", label: "Progress" }], rows: [{ key: "r", cells: [progress(3, 4)] }] } }));
    expect(html).toContain('data-value="0.75"');
    expect(html).toContain("3 / 4");
  });
});
