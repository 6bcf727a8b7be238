/**
 * An import into a study that holds none of its rows is planned a slice of code changes at a time
 * while the rows planned so far are written (lib/import/write-bundle.ts planWhileWriting); an
 * import touching stored rows plans first and then writes. Both must store the same rows.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, inject, test } from "vitest";
import { createClient } from "@/lib/db/client";
import { type ImportFile, type ImportProgress } from "@/lib/import";
import { runImport } from "@/lib/data/imports";
import { countRows, exportText, imported } from "./import-fixtures";

const EXAMPLE = readFileSync("docs/examples/code-changes.jsonl", "utf8").trim().split("\n");

/** `copies` renamed copies of the documented example (pull requests, corrections, every annotation kind): several slices. */
function copiesOfExample(copies: number): ImportFile {
  const lines = Array.from({ length: copies }, (_, copy) =>
    EXAMPLE.map((line) => {
      const json = JSON.parse(line) as { id: string; position?: number; pullRequest?: { id: string } | null };
      json.id = `${json.id}-${copy}`;
      delete json.position;
      if (json.pullRequest) json.pullRequest.id = `${json.pullRequest.id}-${copy}`;
      return JSON.stringify(json);
    }),
  ).flat();
  return { name: "copies.jsonl", content: Buffer.from(`${lines.join("\n")}\n`) };
}

describe("imports written while they are planned", () => {
  const client = createClient(inject("databaseUrl"));
  afterAll(() => client.$disconnect());
  const importTime = async (importRunId: string | null) => (await client.claimJudgement.findFirstOrThrow({ where: { importRunId, code: "UNVERIFIABLE" } })).createdAt;

  test("the same rows as a plan made first, with progress up to every row written", async () => {
    const file = copiesOfExample(130);
    const progress: ImportProgress[] = [];
    const streamed = imported(await runImport({ study: "streamed", format: "jsonl", files: [file], onProgress: (p) => progress.push(p) }, client));
    // One change stored beforehand: the whole file is then planned before anything is written.
    const first = { name: "first.jsonl", content: Buffer.from(`${Buffer.from(file.content).toString("utf8").split("\n")[0]}\n`) };
    const before = imported(await runImport({ study: "planned-first", format: "jsonl", files: [first] }, client));
    const plannedFirst = imported(await runImport({ study: "planned-first", format: "jsonl", files: [file] }, client));

    expect(streamed.counts.codeChanges.created).toBe(520);
    expect(plannedFirst.counts.codeChanges).toEqual({ created: 519, updated: 0, unchanged: 1 });
    // The annotations the file gives no times for carry their import's time.
    const content = async (studyId: string, ...runs: (string | null)[]) => {
      let text = await exportText(client, studyId, "jsonl");
      for (const run of runs) text = text.replaceAll((await importTime(run)).toISOString(), "(import time)");
      return text;
    };
    expect(await content(streamed.study.id, streamed.importRunId)).toBe(await content(plannedFirst.study.id, before.importRunId, plannedFirst.importRunId));

    const writes = progress.filter((p) => p.phase === "write");
    const rows = Object.values(streamed.counts).reduce((n, c) => n + c.created, 0);
    expect(writes.length).toBeGreaterThan(1);
    expect(writes.at(-1)).toMatchObject({ done: rows, total: rows });
    for (let i = 1; i < writes.length; i++) expect(writes[i].done).toBeGreaterThan(writes[i - 1].done);
    expect(writes.every((p) => p.done <= p.total)).toBe(true);

    const again = imported(await runImport({ study: "streamed", format: "jsonl", files: [file] }, client));
    expect(Object.values(again.counts).reduce((n, c) => n + c.created, 0)).toBe(0);
    expect(again.counts.reviews.unchanged).toBe(streamed.counts.reviews.created);
  });

  test("a COPY that fails while later rows are planned fails the import, writes nothing and leaves the connection usable", async () => {
    const file = copiesOfExample(130);
    const refused = (JSON.parse(Buffer.from(file.content).toString("utf8").split("\n")[299]) as { id: string }).id;
    // The database refuses line 300's code change, which is written in a later slice than the first.
    await client.$executeRawUnsafe(`CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await client.$executeRawUnsafe(`CREATE TRIGGER refuse_change BEFORE INSERT ON "CodeChange" FOR EACH ROW WHEN (NEW."externalId" = '${refused}') EXECUTE FUNCTION refuse_change()`);
    const before = await countRows(client);
    try {
      await expect(runImport({ study: "streamed-failing", format: "jsonl", files: [file] }, client)).rejects.toThrow(/refused by the test/);
    } finally {
      await client.$executeRawUnsafe(`DROP TRIGGER refuse_change ON "CodeChange"; DROP FUNCTION refuse_change()`);
    }
    expect(await countRows(client)).toEqual(before);
    expect(imported(await runImport({ study: "streamed-failing", format: "jsonl", files: [copiesOfExample(2)] }, client)).counts.codeChanges.created).toBe(8);
  });
});
