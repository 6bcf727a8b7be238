import { expect, test } from "@playwright/test";
import { E2E_ACCOUNTS, signIn, testDb } from "./fixtures";

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
  await expect(page.getByRole("region", { name: "Import preview" })).toBeVisible();
  expect(await testDb().codeChange.count({ where: { study: { slug: "upload-e2e" } } })).toBe(0);

  await form.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("region", { name: "Import done" })).toBeVisible();
  expect(await testDb().codeChange.count({ where: { study: { slug: "upload-e2e" } } })).toBe(2);
  expect(await testDb().candidateReview.count({ where: { codeChange: { study: { slug: "upload-e2e" } } } })).toBe(4);

  await page.goto("/studies/upload-e2e");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /^JSONL/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("upload-e2e.jsonl");
  const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const exported = text.trim().split("\n").map((l) => JSON.parse(l) as { id: string; reviews: unknown[] });
  expect(exported.map((e) => e.id).sort()).toEqual(["a", "b"]);
  expect(exported[0].reviews).toHaveLength(2);
});

test("an annotator can neither import nor export", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.ann1);
  expect((await page.request.get("/api/studies/demo/export?format=jsonl")).status()).toBe(403);
  const upload = await page.request.post("/api/studies/demo/import", { multipart: { format: "jsonl", files: { name: "x.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(line("z", "x")) } } });
  expect(upload.status()).toBe(403);
  expect((await page.goto("/studies/demo/import"))?.status()).toBe(403);
  expect(await testDb().codeChange.count({ where: { externalId: "z" } })).toBe(0);
});
