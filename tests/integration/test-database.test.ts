import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { expect, test } from "vitest";
import { serverAnswers } from "@/lib/db/embedded-postgres";

const clusterFolders = (name: string) => readdirSync(tmpdir()).filter((entry) => entry.startsWith(`${name}-`));

async function until(condition: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

test("a test database whose process is killed (kill -9) does not outlive it: its server stops and its folder is deleted", async () => {
  const name = `crjudge_orphan_${process.pid}`;
  const child = spawn(process.execPath, ["--import", "tsx", "tests/integration/orphan-database.ts", name], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("\n")) resolve(out.trim());
    });
    child.once("exit", (code) => reject(new Error(`the child exited with ${code} before its database was ready`)));
  });
  const port = Number(new URL(url).port);
  expect(await serverAnswers(port)).toBe(true);
  expect(clusterFolders(name)).toHaveLength(1);

  child.kill("SIGKILL");
  expect(await until(async () => !(await serverAnswers(port)), 10_000)).toBe(true);
  expect(await until(() => clusterFolders(name).length === 0, 10_000)).toBe(true);
}, 60_000);
