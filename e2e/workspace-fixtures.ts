/**
 * Helpers for the workspace browser tests: each test makes its own annotator with its own
 * assignment on a demo item, so tests do not depend on each other or on the demo annotators.
 */
import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { addAccount } from "@/lib/data/accounts";
import type { TaskType } from "@/lib/generated/prisma/client";
import { signIn, testDb } from "./fixtures";

export interface TestAssignment {
  account: { email: string; password: string };
  accountId: string;
  assignmentId: string;
  codeChangeId: string;
  studyId: string;
}

export async function demoStudy() {
  return testDb().study.findUniqueOrThrow({ where: { slug: "demo" } });
}

/**
 * The demo item with the most generated claims, or the n-th one by position, among the seed's
 * items (those with reviews): a test that adds an item to the demo study (the 2,000-line diff of
 * workspace-perf, claims only) must not shift which item the n-th is.
 */
export async function demoChange(which: { mostClaims?: boolean; index?: number } = {}) {
  const study = await demoStudy();
  const changes = await testDb().codeChange.findMany({
    where: { studyId: study.id, reviews: { some: {} } },
    orderBy: { position: "asc" },
    include: { pseudoReferences: true, reviews: true },
  });
  if (which.mostClaims) {
    const claims = (c: (typeof changes)[number]) => c.pseudoReferences.filter((r) => r.kind === "CLAIM" || r.kind === "IMPLICATION").length;
    return changes.slice().sort((a, b) => claims(b) - claims(a))[0];
  }
  return changes[(which.index ?? 0) % changes.length];
}

export async function newAnnotator(label: string) {
  const account = { email: `${label}-${randomUUID().slice(0, 8)}@e2e.test`, password: "annotator-password-1" };
  const created = await addAccount({ email: account.email, name: `${label} tester`, role: "ANNOTATOR", password: account.password }, testDb());
  return { account, accountId: created.id };
}

/** A fresh annotator, member of the demo study, with one assignment of `task` on `codeChangeId` there. */
export async function assignmentFor(label: string, task: TaskType, codeChangeId: string): Promise<TestAssignment> {
  const study = await demoStudy();
  const { account, accountId } = await newAnnotator(label);
  await testDb().studyMember.create({ data: { studyId: study.id, accountId, role: "ANNOTATOR" } });
  const assignment = await testDb().assignment.create({ data: { studyId: study.id, annotatorId: accountId, codeChangeId, task, position: 0 } });
  return { account, accountId, assignmentId: assignment.id, codeChangeId, studyId: study.id };
}

/** Signs in and opens the workspace; waits until it listens to the keyboard (hydrated). */
export async function openWorkspace(page: Page, a: { account: { email: string; password: string }; assignmentId: string }): Promise<void> {
  await signIn(page, a.account);
  await gotoWorkspace(page, a.assignmentId);
}

export async function gotoWorkspace(page: Page, assignmentId: string): Promise<void> {
  await page.goto(`/annotate/${assignmentId}`);
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-ready", "true");
}

/** Presses keys one after the other ("-" then "1" is two presses). */
export async function keys(page: Page, ...sequence: string[]): Promise<void> {
  for (const key of sequence) await page.keyboard.press(key);
}

export async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-state", "saved");
}

/** Collects uncaught page errors (a hydration mismatch shows up here) and Content Security Policy violations. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}
