/**
 * The authorization matrix: every route handler and method, every page and every
 * server action, enumerated from the code (`app/**`) and the build
 * (`.next/server/server-reference-manifest.json`), is called by each kind of account against a
 * study of its own: anonymous, an annotator of the study, an annotator of another study, a lead
 * of another study, the study's lead, an admin and a participant of the study (crowd link). Each call has its expected status (redirect
 * to sign-in for pages, `ok: false` for actions), and a refused call changes no row of any table.
 * A route, page or action without an entry here fails the first test.
 */
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { hashPassword } from "@/lib/auth/password";
import { DEFAULT_COMMENT_QUESTIONS } from "@/lib/annotation/comment-questions";
import { editableSettings } from "@/lib/data/study-settings";
import { addAccount } from "@/lib/data/accounts";
import { RATER_PRESETS } from "@/lib/judges/rater-presets";
import { raterPromptVersion } from "@/lib/judges/rater-prompt";
import { createAnnotationFixture, type AnnotationFixture } from "../tests/integration/annotation-fixture";
import { jsonlFile } from "../tests/integration/import-fixtures";
import { builtActions, existingActions, existingPages, existingRoutes } from "./app-entries";
import { E2E_ACCOUNTS, testDb } from "./fixtures";

const SUBJECTS = ["anonymous", "annotator", "otherStudyAnnotator", "otherStudyLead", "lead", "admin", "participant"] as const;
type Subject = (typeof SUBJECTS)[number];
/** A status, a redirect (to sign-in, or elsewhere), or an action's result. */
type Expected = number | "signin" | { redirect: string } | "ok" | "refused";
type Access = Record<Subject, Expected>;

interface Fixture {
  a: AnnotationFixture;
  b: AnnotationFixture;
  /** The annotator's own claim-verification assignment in study A, and a claim of its item. */
  assignmentId: string;
  claimId: string;
  runId: string;
  /** A pull request of study A (its external id, as its page's URL names it). */
  pullRequestId: string;
  /** An inactive annotator of study A (account activation), and a member that removal targets. */
  inactiveId: string;
  removableId: string;
  settings: { annotatorsPerItem: number; reliabilitySetSize: number; assignmentSeed: number };
  /** Study A's settings as the settings page sends them (saved unchanged). */
  studySettings: Record<string, unknown>;
  decisions: { pseudoReferenceId: string; action: "KEEP" }[];
  /** The key of the preview of one round of study A (makeRounds confirms it), set by its entry's preparation. */
  roundsKey: string;
  /** The key of the preview of study A's assignments for its two annotators (generate confirms it), set by its entry's preparation. */
  generateKey: string;
  /** A failed judge run of study A (resumeJudgeRun queues it again), set by its entry's preparation. */
  judgeRunId: string;
  /** An API token of study A's annotator (revokeToken revokes it), set by its entry's preparation. */
  tokenId: string;
  /** A webhook of study A and a delivery of it (removeStudyWebhook, resendWebhookDelivery), set by their entries' preparation. */
  webhookId: string;
  deliveryId: string;
}

interface Call {
  /** Route: the method and URL with its body; page: a GET; action: the page it is posted to and its input. */
  url: string;
  data?: unknown;
  multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>;
}

interface Entry {
  access: Access;
  call: (f: Fixture, subject: Subject) => Call;
  /** Restores what an allowed call undid, before each subject's call. */
  prepare?: (f: Fixture) => Promise<void>;
}

// Who may do what: the access patterns of the product.
const refusedBy = (kind: Kind): Expected => (kind === "action" ? "refused" : kind === "page" ? "signin" : 401);
type Kind = "route" | "page" | "action";
const forbid = (kind: Kind): Expected => (kind === "action" ? "refused" : 403);
const hidden = (kind: Kind): Expected => (kind === "action" ? "refused" : 404);
/** Leads of this study and admins; another lead's study is 404 as if absent. */
const leadOfStudy = (kind: Kind, allowed: Expected = kind === "action" ? "ok" : 200): Access => ({
  anonymous: refusedBy(kind),
  annotator: forbid(kind),
  otherStudyAnnotator: forbid(kind),
  otherStudyLead: hidden(kind),
  lead: allowed,
  admin: allowed,
  participant: forbid(kind),
});
/** Any lead or admin (pages and routes not about one study). */
const anyLead = (kind: Kind, allowed: Expected = kind === "action" ? "ok" : 200): Access => ({ ...leadOfStudy(kind, allowed), otherStudyLead: allowed });
/** Only the annotator whose assignment it is; everyone else finds nothing. */
const ownAssignment = (kind: Kind, allowed: Expected = 200): Access => ({
  anonymous: refusedBy(kind),
  annotator: allowed,
  otherStudyAnnotator: 404,
  otherStudyLead: 404,
  lead: 404,
  admin: 404,
  participant: 404,
});
const signedIn = (allowed: Expected, anonymous: Expected): Access => ({ anonymous, annotator: allowed, otherStudyAnnotator: allowed, otherStudyLead: allowed, lead: allowed, admin: allowed, participant: allowed });
const everyone = (allowed: Expected): Access => signedIn(allowed, allowed);

/** A judge question of study A, and a prompt template for it (lib/judges/rater-prompt.ts). */
const judgeQuestionOfA = (f: Fixture) => ({ slug: f.a.slug, task: "COMMENT_FILTERING", question: "high-quality" });
const MATRIX_PROMPT = "Matrix: is this comment of high quality? {{item}} Answer {{scale}}.";

/** The participant of study A (crowd link) whose browser is the subject "participant". */
const MATRIX_PARTICIPANT = "matrix-participant";

const studyPage = (suffix = "") => ({ access: leadOfStudy("page"), call: (f: Fixture) => ({ url: `/studies/${f.a.slug}${suffix}` }) });
const importFile = () => ({ name: "changes.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(jsonlFile("changes.jsonl", ["matrix-1", "matrix-2"]).content) });

const ROUTES: Record<string, Entry> = {
  "GET /api/annotations/assignments/[assignmentId]": { access: ownAssignment("route"), call: (f) => ({ url: `/api/annotations/assignments/${f.assignmentId}` }) },
  "POST /api/annotations": {
    access: ownAssignment("route"),
    call: (f) => ({ url: "/api/annotations", data: { kind: "judgement", assignmentId: f.assignmentId, targetId: f.claimId, baseVersion: 0, value: { code: "CORRECT", necessary: true, errorType: null, note: "matrix" } } }),
  },
  "POST /api/annotations/assignments/[assignmentId]/time": { access: ownAssignment("route"), call: (f) => ({ url: `/api/annotations/assignments/${f.assignmentId}/time`, data: { deltaMs: 1000 } }) },
  "POST /api/annotations/assignments/[assignmentId]/submit": { access: ownAssignment("route", 422), call: (f) => ({ url: `/api/annotations/assignments/${f.assignmentId}/submit`, data: {} }) },
  "POST /api/annotations/assignments/[assignmentId]/skip": { access: ownAssignment("route"), call: (f) => ({ url: `/api/annotations/assignments/${f.assignmentId}/skip`, data: { reason: "matrix skip" } }) },
  "POST /api/annotations/assignments/[assignmentId]/resume": { access: ownAssignment("route"), call: (f) => ({ url: `/api/annotations/assignments/${f.assignmentId}/resume`, data: {} }) },
  "GET /api/auth/[...nextauth]": { access: everyone(200), call: () => ({ url: "/api/auth/csrf" }) },
  // Without its CSRF token next-auth refuses a sign-in and redirects.
  "POST /api/auth/[...nextauth]": { access: everyone(302), call: () => ({ url: "/api/auth/callback/credentials", multipart: { email: E2E_ACCOUNTS.admin.email, password: E2E_ACCOUNTS.admin.password } }) },
  "GET /api/health": { access: everyone(200), call: () => ({ url: "/api/health" }) },
  "GET /api/openapi.json": { access: everyone(200), call: () => ({ url: "/api/openapi.json" }) },
  // The participant's link resumes them in their own browser only; from any other browser, signed in or not, it takes nobody's place.
  "GET /join/[slug]": { access: { ...signedIn(403, 403), participant: 303 }, call: (f) => ({ url: `/join/${f.a.slug}?pid=${MATRIX_PARTICIPANT}` }) },
  "GET /api/me/assignments": { access: signedIn(200, 401), call: () => ({ url: "/api/me/assignments" }) },
  "GET /api/studies": { access: anyLead("route"), call: () => ({ url: "/api/studies" }) },
  "GET /api/studies/[slug]/code-changes/[codeChangeId]": { access: leadOfStudy("route"), call: (f) => ({ url: `/api/studies/${f.a.slug}/code-changes/${f.a.changes[0].id}` }) },
  "GET /api/studies/[slug]/agreement": { access: leadOfStudy("route"), call: (f) => ({ url: `/api/studies/${f.a.slug}/agreement?resamples=0` }) },
  "GET /api/studies/[slug]/validity": { access: leadOfStudy("route"), call: (f) => ({ url: `/api/studies/${f.a.slug}/validity?metric=exact-match&human=relevance&resamples=0` }) },
  "GET /api/studies/[slug]/export": { access: leadOfStudy("route"), call: (f) => ({ url: `/api/studies/${f.a.slug}/export?format=jsonl` }) },
  "POST /api/studies/[slug]/import": { access: leadOfStudy("route"), call: (f) => ({ url: `/api/studies/${f.a.slug}/import`, multipart: { format: "jsonl", update: "true", files: importFile() } }) },
  "POST /api/studies/[slug]/test-results": {
    access: leadOfStudy("route"),
    call: (f) => ({ url: `/api/studies/${f.a.slug}/test-results`, multipart: { files: { name: "outcomes.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(`${JSON.stringify({ pr: f.pullRequestId, system: "matrix-bot", test: "t1", outcome: "passed" })}\n`) } } }),
  },
  "GET /api/studies/[slug]/metric-runs": { access: leadOfStudy("route"), call: (f) => ({ url: `/api/studies/${f.a.slug}/metric-runs` }) },
  "POST /api/studies/[slug]/metric-runs": { access: leadOfStudy("route", 202), call: (f) => ({ url: `/api/studies/${f.a.slug}/metric-runs`, data: { metrics: ["exact-match"] } }) },
  "GET /api/studies/[slug]/metric-runs/[runId]": { access: leadOfStudy("route"), call: (f) => ({ url: `/api/studies/${f.a.slug}/metric-runs/${f.runId}` }) },
};

const PAGES: Record<string, Entry> = {
  "/": {
    access: { anonymous: "signin", annotator: { redirect: "/annotate" }, otherStudyAnnotator: { redirect: "/annotate" }, otherStudyLead: { redirect: "/studies" }, lead: { redirect: "/studies" }, admin: { redirect: "/studies" }, participant: { redirect: "/annotate" } },
    call: () => ({ url: "/" }),
  },
  "/account": { access: signedIn(200, "signin"), call: () => ({ url: "/account" }) },
  "/signin": { access: { ...signedIn({ redirect: "/" }, 200) }, call: () => ({ url: "/signin" }) },
  "/annotate": { access: signedIn(200, "signin"), call: () => ({ url: "/annotate" }) },
  "/annotate/[assignmentId]": { access: ownAssignment("page"), call: (f) => ({ url: `/annotate/${f.assignmentId}` }) },
  // Annotators of the study only (study A asks none: the page says so); leads are no annotators of it.
  "/qualification/[slug]": {
    access: { anonymous: "signin", annotator: 200, otherStudyAnnotator: 404, otherStudyLead: 403, lead: 403, admin: 403, participant: 200 },
    call: (f) => ({ url: `/qualification/${f.a.slug}` }),
  },
  // A participant's own page (crowd links); annotators with a password are no participants.
  "/participate/[slug]": {
    access: { anonymous: "signin", annotator: 404, otherStudyAnnotator: 404, otherStudyLead: 403, lead: 403, admin: 403, participant: 200 },
    call: (f) => ({ url: `/participate/${f.a.slug}` }),
  },
  "/admin/accounts": { access: anyLead("page"), call: () => ({ url: "/admin/accounts" }) },
  "/import": { access: anyLead("page"), call: () => ({ url: "/import" }) },
  "/studies": { access: anyLead("page"), call: () => ({ url: "/studies" }) },
  "/studies/new": { access: anyLead("page"), call: () => ({ url: "/studies/new" }) },
  "/studies/[slug]": studyPage(),
  "/studies/[slug]/adjudicate": studyPage("/adjudicate"),
  "/studies/[slug]/adjudicate/[task]/[itemId]": { access: leadOfStudy("page"), call: (f) => ({ url: `/studies/${f.a.slug}/adjudicate/COMMENT_FILTERING/${f.a.changes[0].reviews[0]}` }) },
  "/studies/[slug]/agreement": studyPage("/agreement"),
  "/studies/[slug]/annotators/[annotatorId]": { access: leadOfStudy("page"), call: (f) => ({ url: `/studies/${f.a.slug}/annotators/${f.a.accounts.ann1}` }) },
  "/studies/[slug]/assignments": studyPage("/assignments"),
  "/studies/[slug]/comment-systems": studyPage("/comment-systems"),
  "/studies/[slug]/consolidate": studyPage("/consolidate"),
  "/studies/[slug]/crscore-tables": studyPage("/crscore-tables"),
  "/studies/[slug]/consolidate/[codeChangeId]": { access: leadOfStudy("page"), call: (f) => ({ url: `/studies/${f.a.slug}/consolidate/${f.a.changes[0].id}` }) },
  "/studies/[slug]/import": studyPage("/import"),
  "/studies/[slug]/item-sets": studyPage("/item-sets"),
  "/studies/[slug]/items/[codeChangeId]": { access: leadOfStudy("page"), call: (f) => ({ url: `/studies/${f.a.slug}/items/${f.a.changes[0].id}?task=COMMENT_FILTERING&annotator=${f.a.accounts.ann1}` }) },
  "/studies/[slug]/members": studyPage("/members"),
  "/studies/[slug]/pull-requests/[pullRequestId]": { access: leadOfStudy("page"), call: (f) => ({ url: `/studies/${f.a.slug}/pull-requests/${encodeURIComponent(f.pullRequestId)}` }) },
  "/studies/[slug]/metrics": studyPage("/metrics"),
  "/studies/[slug]/pseudo-refs": studyPage("/pseudo-refs"),
  "/studies/[slug]/judges": studyPage("/judges"),
  "/studies/[slug]/judges/prompts": studyPage("/judges/prompts?task=COMMENT_FILTERING&question=high-quality"),
  "/studies/[slug]/quality": studyPage("/quality"),
  "/studies/[slug]/rounds": studyPage("/rounds"),
  "/studies/[slug]/settings": studyPage("/settings"),
  "/studies/[slug]/tools": studyPage("/tools"),
  "/studies/[slug]/validity": studyPage("/validity"),
};

/** Study A without calibration rounds (and their item sets). */
async function removeRounds(f: Fixture): Promise<void> {
  await testDb().calibrationRound.deleteMany({ where: { studyId: f.a.studyId } });
  await testDb().itemSet.deleteMany({ where: { studyId: f.a.studyId, name: { startsWith: "round-" } } });
}

/** Study A's rounds anew, round i a change of its own ("matrix-round-i"), released as given. */
async function makeRoundsOfA(f: Fixture, released: boolean[]) {
  await removeRounds(f);
  const db = testDb();
  const changes = [];
  for (const [i, open] of released.entries()) {
    const externalId = `matrix-round-${i + 1}`;
    const change = await db.codeChange.upsert({ where: { studyId_externalId: { studyId: f.a.studyId, externalId } }, create: { studyId: f.a.studyId, externalId, language: "python", diff: "" }, update: {} });
    const set = await db.itemSet.create({ data: { studyId: f.a.studyId, name: `round-${i + 1}`, kind: "CALIBRATION", members: { create: [{ codeChangeId: change.id, position: 0 }] } } });
    await db.calibrationRound.create({ data: { studyId: f.a.studyId, number: i + 1, itemSetId: set.id, releasedAt: open ? new Date() : null } });
    changes.push(change);
  }
  return changes;
}

/** Server actions by `file#export`; `url` is a page the action is posted to. */
const ACTIONS: Record<string, Entry> = {
  "app/account/actions.ts#createToken": { access: { ...signedIn("ok", "refused"), participant: "refused" }, call: (_f, s) => ({ url: "/account", data: { name: `matrix ${s}`, scopes: ["read"], expiresInDays: 1 } }) },
  // an account revokes only its own tokens: an admin or lead does not revoke the annotator's
  "app/account/actions.ts#revokeToken": {
    access: { anonymous: "refused", annotator: "ok", otherStudyAnnotator: "refused", otherStudyLead: "refused", lead: "refused", admin: "refused", participant: "refused" },
    call: (f) => ({ url: "/account", data: { tokenId: f.tokenId } }),
    prepare: async (f) => {
      const token = await testDb().apiToken.create({ data: { accountId: f.a.accounts.ann1, name: "matrix", hint: "crj_mtrx", tokenHash: `matrix-${Date.now()}-${Math.random()}`, scopes: ["READ"], expiresAt: new Date(Date.now() + 86_400_000) } });
      f.tokenId = token.id;
    },
  },
  "app/admin/accounts/actions.ts#createAccount": {
    access: anyLead("action"),
    call: (_f, s) => ({ url: "/admin/accounts", data: { email: `matrix-${s.toLowerCase()}-${Date.now()}@e2e.test`, name: "matrix", role: "ANNOTATOR", password: "matrix-password-1" } }),
  },
  // Leads manage the annotator accounts of their own studies only (the target is an annotator of study A).
  "app/admin/accounts/actions.ts#activateAccount": { access: leadOfStudy("action"), call: (f) => ({ url: "/admin/accounts", data: { accountId: f.inactiveId, password: "matrix-password-1" } }) },
  "app/admin/accounts/actions.ts#resetPassword": { access: leadOfStudy("action"), call: (f) => ({ url: "/admin/accounts", data: { accountId: f.inactiveId, password: "matrix-password-2" } }) },
  "app/admin/accounts/actions.ts#deactivateAccount": { access: leadOfStudy("action"), call: (f) => ({ url: "/admin/accounts", data: { accountId: f.inactiveId } }) },
  "app/admin/accounts/actions.ts#reactivateAccount": { access: leadOfStudy("action"), call: (f) => ({ url: "/admin/accounts", data: { accountId: f.inactiveId } }) },
  "app/studies/[slug]/actions.ts#changeStageOrder": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}`, data: { slug: f.a.slug, on: false } }) },
  "app/studies/[slug]/adjudicate/actions.ts#decideConsensus": {
    access: leadOfStudy("action"),
    call: (f) => ({
      url: `/studies/${f.a.slug}/adjudicate/COMMENT_FILTERING/${f.a.changes[0].reviews[0]}`,
      data: { slug: f.a.slug, task: "COMMENT_FILTERING", itemId: f.a.changes[0].reviews[0], question: "high-quality", value: "high-quality", reason: "matrix", baseVersion: 0 },
    }),
    // each allowed decision starts from no consensus (base version 0)
    prepare: async (f) => {
      await testDb().consensus.deleteMany({ where: { itemId: f.a.changes[0].reviews[0] } });
    },
  },
  "app/studies/[slug]/assignments/actions.ts#saveSettings": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/assignments`, data: { slug: f.a.slug, ...f.settings } }) },
  "app/studies/[slug]/assignments/actions.ts#previewGeneration": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/assignments`, data: { slug: f.a.slug, annotatorIds: [f.a.accounts.ann1, f.a.accounts.ann2] } }) },
  // as its preview showed it
  "app/studies/[slug]/assignments/actions.ts#generate": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/assignments`, data: { slug: f.a.slug, annotatorIds: [f.a.accounts.ann1, f.a.accounts.ann2], confirm: f.generateKey } }),
    prepare: async (f) => {
      const { previewGenerate } = await import("@/lib/data/assignment-admin");
      f.generateKey = (await previewGenerate({ id: f.a.accounts.lead, role: "LEAD" }, f.a.slug, [f.a.accounts.ann1, f.a.accounts.ann2])).key;
    },
  },
  "app/studies/[slug]/assignments/actions.ts#reassign": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/assignments`, data: { slug: f.a.slug, assignmentId: f.assignmentId, toAnnotatorId: f.a.accounts.ann1 } }),
  },
  "app/studies/[slug]/assignments/actions.ts#reassignOpen": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/assignments`, data: { slug: f.a.slug, fromAnnotatorId: f.a.accounts.ann1, toAnnotatorId: f.a.accounts.ann1 } }),
  },
  "app/studies/[slug]/consolidate/actions.ts#consolidate": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/consolidate/${f.a.changes[0].id}`, data: { slug: f.a.slug, codeChangeId: f.a.changes[0].id, decisions: f.decisions } }),
  },
  "app/studies/[slug]/item-sets/actions.ts#createSet": {
    access: leadOfStudy("action"),
    call: (f, s) => ({ url: `/studies/${f.a.slug}/item-sets`, data: { slug: f.a.slug, name: `matrix-${s}`, kind: "CUSTOM", fileName: "matrix.txt", text: "cc-0\ncc-1/r2" } }),
    prepare: async (f) => {
      await testDb().itemSet.deleteMany({ where: { studyId: f.a.studyId, name: { startsWith: "matrix-" } } });
    },
  },
  "app/studies/[slug]/item-sets/actions.ts#createSetFromTable": {
    access: leadOfStudy("action"),
    call: (f, s) => ({ url: `/studies/${f.a.slug}/item-sets`, data: { slug: f.a.slug, name: `matrix-table-${s}`, kind: "CUSTOM", filter: { table: "review", system: "system-2" }, ids: null } }),
    prepare: async (f) => {
      await testDb().itemSet.deleteMany({ where: { studyId: f.a.studyId, name: { startsWith: "matrix-" } } });
    },
  },
  "app/studies/[slug]/item-sets/actions.ts#deleteSet": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/item-sets`, data: { slug: f.a.slug, name: "to delete" } }),
    // each allowed deletion finds the set
    prepare: async (f) => {
      await testDb().itemSet.upsert({ where: { studyId_name: { studyId: f.a.studyId, name: "to delete" } }, create: { studyId: f.a.studyId, name: "to delete", kind: "CUSTOM" }, update: {} });
    },
  },
  "app/studies/[slug]/members/actions.ts#addMember": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/members`, data: { slug: f.a.slug, email: `ann2-${f.a.slug.slice(6)}@test.local`, role: "ANNOTATOR" } }) },
  "app/studies/[slug]/members/actions.ts#removeMember": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/members`, data: { slug: f.a.slug, accountId: f.removableId } }),
    prepare: async (f) => {
      await testDb().studyMember.upsert({ where: { studyId_accountId: { studyId: f.a.studyId, accountId: f.removableId } }, create: { studyId: f.a.studyId, accountId: f.removableId, role: "ANNOTATOR" }, update: {} });
    },
  },
  "app/studies/[slug]/quality/actions.ts#saveQualitySettings": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/quality`, data: { slug: f.a.slug, goldPerQueue: 0, goldMinAccuracyPercent: 80, minSecondsPerItem: 10 } }),
  },
  // resuming (not pausing) keeps the annotator able to work for the other checks
  "app/studies/[slug]/quality/actions.ts#pauseAnnotator": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/quality`, data: { slug: f.a.slug, annotatorId: f.a.accounts.ann1, paused: false } }) },
  "app/studies/[slug]/pseudo-refs/actions.ts#startPseudoRefs": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/pseudo-refs`, data: { slug: f.a.slug, source: "smells" } }) },
  "app/studies/[slug]/pseudo-refs/actions.ts#saveClaimPrompt": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/pseudo-refs`, data: { slug: f.a.slug, prompt: "" } }) },
  "app/studies/[slug]/rounds/actions.ts#previewMakeRounds": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/rounds`, data: { slug: f.a.slug, count: 1 } }), prepare: removeRounds },
  // one round of every item, open at once (no item is held back from the other checks), as its preview showed it
  "app/studies/[slug]/rounds/actions.ts#makeRounds": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/rounds`, data: { slug: f.a.slug, count: 1, confirm: f.roundsKey } }),
    prepare: async (f) => {
      await removeRounds(f);
      const { previewRounds } = await import("@/lib/data/rounds");
      f.roundsKey = (await previewRounds({ id: f.a.accounts.lead, role: "LEAD" }, { slug: f.a.slug, count: 1 })).key;
    },
  },
  "app/studies/[slug]/rounds/actions.ts#releaseNextRound": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/rounds`, data: { slug: f.a.slug, number: 2, notes: "matrix" } }),
    // round 1 (a change of its own, its one assignment done) closed, round 2 (another change, no assignments) not open
    prepare: async (f) => {
      const [first] = await makeRoundsOfA(f, [true, false]);
      await testDb().assignment.upsert({
        where: { annotatorId_codeChangeId_task: { annotatorId: f.a.accounts.ann2, codeChangeId: first.id, task: "REFERENCE_GRADING" } },
        create: { studyId: f.a.studyId, annotatorId: f.a.accounts.ann2, codeChangeId: first.id, task: "REFERENCE_GRADING", position: 1000, status: "DONE" },
        update: {},
      });
    },
  },
  // one round, released (nothing is held from the other checks), the items outside it not opened by a lead yet
  "app/studies/[slug]/rounds/actions.ts#openItemsOutsideRounds": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/rounds`, data: { slug: f.a.slug } }),
    prepare: async (f) => {
      await makeRoundsOfA(f, [true]);
      await testDb().study.update({ where: { id: f.a.studyId }, data: { outsideRoundsOpenedAt: null } });
    },
  },
  "app/studies/[slug]/rounds/actions.ts#saveRoundRule": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/rounds`, data: { slug: f.a.slug, coefficient: "fleiss", threshold: null } }) },
  "app/studies/[slug]/settings/actions.ts#saveStudySettings": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/settings`, data: { slug: f.a.slug, ...f.studySettings } }) },
  "app/studies/[slug]/settings/actions.ts#saveCrowdSettings": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/settings`, data: { slug: f.a.slug, open: true, quota: 10, completionCode: "", completionUrl: "", releaseMinutes: 60 } }),
  },
  "app/studies/[slug]/settings/actions.ts#saveQualificationSettings": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/settings`, data: { slug: f.a.slug, required: false, consent: "", goldItems: 3, passMarkPercent: 80, maxAttempts: 2 } }),
  },
  // Study A asks no qualification: no step is the current one, so every call is refused.
  "app/qualification/[slug]/actions.ts#takeStep": { access: { ...leadOfStudy("action", "refused"), annotator: "refused", otherStudyLead: "refused" }, call: (f) => ({ url: `/qualification/${f.a.slug}`, data: { slug: f.a.slug, step: "consent" } }) },
  "app/qualification/[slug]/actions.ts#answerGold": { access: { ...leadOfStudy("action", "refused"), annotator: "refused", otherStudyLead: "refused" }, call: (f) => ({ url: `/qualification/${f.a.slug}`, data: { slug: f.a.slug, index: 0, choice: 0 } }) },
  // a public address written as such: checked without a name to resolve, never sent to (no worker runs)
  "app/studies/[slug]/settings/actions.ts#addStudyWebhook": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/settings`, data: { slug: f.a.slug, url: "https://93.184.215.14/matrix-hook" } }) },
  "app/studies/[slug]/settings/actions.ts#removeStudyWebhook": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/settings`, data: { slug: f.a.slug, webhookId: f.webhookId } }),
    prepare: async (f) => {
      f.webhookId = (await testDb().webhook.create({ data: { studyId: f.a.studyId, url: "https://93.184.215.14/matrix-remove", secret: "matrix" } })).id;
    },
  },
  "app/studies/[slug]/settings/actions.ts#resendWebhookDelivery": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/settings`, data: { slug: f.a.slug, deliveryId: f.deliveryId } }),
    prepare: async (f) => {
      if (f.deliveryId) return;
      const hook = await testDb().webhook.create({ data: { studyId: f.a.studyId, url: "https://93.184.215.14/matrix-resend", secret: "matrix" } });
      f.deliveryId = (await testDb().webhookDelivery.create({ data: { webhookId: hook.id, eventId: "matrix-event", event: "report.ready", body: "{}", status: "FAILED", attempts: 12 } })).id;
    },
  },
  "app/studies/[slug]/settings/actions.ts#saveCommentQuestions": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/settings`, data: { slug: f.a.slug, questions: DEFAULT_COMMENT_QUESTIONS } }) },
  "app/studies/new/actions.ts#createNewStudy": {
    access: anyLead("action"),
    call: (f, s) => ({ url: "/studies/new", data: { name: `Matrix ${s}`, slug: `${f.a.slug}-new-${s.toLowerCase()}`, tasks: ["REFERENCE_GRADING"], likertDimensions: ["relevance"], likertMin: 1, likertMax: 5, annotatorsPerItem: 2 } }),
  },
  // queued for a worker the matrix does not run
  "app/studies/[slug]/tools/actions.ts#startMatcherRun": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/tools`, data: { slug: f.a.slug, k: 3 } }) },
  "app/studies/[slug]/judges/actions.ts#addPromptVersion": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/judges/prompts`, data: { ...judgeQuestionOfA(f), text: MATRIX_PROMPT } }) },
  "app/studies/[slug]/judges/actions.ts#previewPrompt": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/judges/prompts`, data: { ...judgeQuestionOfA(f), text: MATRIX_PROMPT, item: 1 } }) },
  // queued for a worker the matrix does not run: nothing is asked of an LLM
  "app/studies/[slug]/judges/actions.ts#startJudgeRun": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/judges/prompts`, data: { ...judgeQuestionOfA(f), promptVersion: raterPromptVersion(RATER_PRESETS[0].text), model: "gpt-4o-mini", name: "matrix" } }),
  },
  "app/studies/[slug]/judges/actions.ts#resumeJudgeRun": {
    access: leadOfStudy("action"),
    call: (f) => ({ url: `/studies/${f.a.slug}/judges`, data: { slug: f.a.slug, runId: f.judgeRunId } }),
    prepare: async (f) => {
      const judge = await testDb().account.upsert({ where: { email: "judge:matrix-failed" }, create: { email: "judge:matrix-failed", name: "judge:matrix-failed", kind: "JUDGE", active: false, role: "ANNOTATOR" }, update: {} });
      const key = { studyId: f.a.studyId, task: "COMMENT_FILTERING" as const, question: "high-quality", version: raterPromptVersion(MATRIX_PROMPT) };
      const prompt = await testDb().promptTemplate.upsert({ where: { studyId_task_question_version: key }, create: { ...key, text: MATRIX_PROMPT }, update: {} });
      const run = await testDb().judgeRun.create({ data: { studyId: f.a.studyId, judgeId: judge.id, task: "COMMENT_FILTERING", question: "high-quality", model: "gpt-4o-mini", promptVersion: key.version, promptId: prompt.id, status: "FAILED", error: "matrix" } });
      f.judgeRunId = run.id;
    },
  },
  "app/studies/[slug]/metrics/actions.ts#startRun": { access: leadOfStudy("action"), call: (f) => ({ url: `/studies/${f.a.slug}/metrics`, data: { slug: f.a.slug, metrics: ["exact-match"] } }) },
};

// ---------------------------------------------------------------------------------------------
// Calling them

type Outcome = { status: number; location: string } | { ok: boolean; text: string };

async function perform(context: APIRequestContext, kind: Kind, key: string, call: Call, actionId?: string): Promise<Outcome> {
  const origin = test.info().project.use.baseURL!;
  if (kind === "action") {
    const response = await context.post(call.url, {
      headers: { "next-action": actionId!, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin },
      data: JSON.stringify([call.data]),
      maxRedirects: 0,
    });
    const text = await response.text();
    const ok = /"ok":(true|false)/.exec(text);
    expect(ok, `${key}: an action result in ${response.status()} ${text.slice(0, 300)}`).not.toBeNull();
    return { ok: ok![1] === "true", text };
  }
  const method = kind === "page" ? "GET" : key.split(" ")[0];
  const response = await context.fetch(call.url, { method, headers: method === "GET" ? {} : { origin }, data: call.data, multipart: call.multipart, maxRedirects: 0 });
  return { status: response.status(), location: response.headers().location ?? "" };
}

function matches(outcome: Outcome, expected: Expected): boolean {
  if ("ok" in outcome) return expected === (outcome.ok ? "ok" : "refused");
  if (typeof expected === "number") return outcome.status === expected;
  const target = expected === "signin" ? "/signin" : typeof expected === "object" ? expected.redirect : null;
  return target !== null && [302, 303, 307, 308].includes(outcome.status) && new URL(outcome.location, "http://x").pathname === target;
}

const allowed = (expected: Expected) => expected === "ok" || (typeof expected === "number" && expected < 400) || (typeof expected === "object" && expected !== null);

/** Every row of every table, hashed per table: equal before and after means nothing changed. */
async function snapshot(): Promise<Record<string, string>> {
  const db = testDb();
  const tables = await db.$queryRaw<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY tablename`;
  const parts = tables.map((t) => `(SELECT count(*) || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') FROM "${t.name}" x) AS "${t.name}"`);
  const [row] = await db.$queryRawUnsafe<Record<string, string>[]>(`SELECT ${parts.join(", ")}`);
  return row;
}

// ---------------------------------------------------------------------------------------------
// The accounts and studies

const PASSWORD = "matrix-password-1";

async function setUp(): Promise<{ fixture: Fixture; accounts: Record<Exclude<Subject, "anonymous" | "participant">, { email: string; password: string }> }> {
  const db = testDb();
  const tag = `mx${Date.now()}`;
  const a = await createAnnotationFixture(db, `${tag}a`);
  const b = await createAnnotationFixture(db, `${tag}b`);
  // The fixtures' leads own their studies; give them lead accounts, and everyone a password.
  for (const fx of [a, b]) await db.account.update({ where: { id: fx.accounts.lead }, data: { role: "LEAD" } });
  const passwordHash = await hashPassword(PASSWORD);
  await db.account.updateMany({ where: { id: { in: [a.accounts.lead, b.accounts.lead, a.accounts.ann1, a.accounts.ann2, b.accounts.ann1] } }, data: { passwordHash } });
  process.env.DATABASE_URL ??= process.env.E2E_DATABASE_URL;
  const { generateAssignments } = await import("@/lib/data/assignment-admin");
  await generateAssignments({ id: a.accounts.lead, role: "LEAD" }, a.slug, [a.accounts.ann1, a.accounts.ann2]);
  await generateAssignments({ id: b.accounts.lead, role: "LEAD" }, b.slug, [b.accounts.ann1, b.accounts.ann2]);
  const assignment = await db.assignment.findFirstOrThrow({ where: { studyId: a.studyId, annotatorId: a.accounts.ann1, task: "CLAIM_VERIFICATION" }, include: { codeChange: { include: { pseudoReferences: true } } } });
  const claim = assignment.codeChange.pseudoReferences.find((r) => r.kind === "CLAIM")!;
  const pullRequest = await db.pullRequest.create({ data: { studyId: a.studyId, externalId: `${tag}/repo#1`, title: "matrix pull request" } });
  const run = await db.metricRun.create({ data: { studyId: a.studyId, metrics: ["exact-match"], status: "DONE" } });
  // scores for the validity report
  await db.metricScore.createMany({ data: a.changes.flatMap((c) => c.reviews.map((reviewId, i) => ({ reviewId, metric: "exact-match", value: i % 2 }))) });
  // ann3 is inactive (as an imported annotator) and a member that removal targets
  await db.account.update({ where: { id: a.accounts.ann3 }, data: { active: false } });
  await db.studyMember.create({ data: { studyId: a.studyId, accountId: a.accounts.ann3, role: "ANNOTATOR" } });
  const study = await db.study.findUniqueOrThrow({ where: { id: a.studyId } });
  const refs = await db.pseudoReference.findMany({ where: { codeChangeId: a.changes[0].id, kind: { not: "SMELL" } } });
  const email = async (id: string) => ({ email: (await db.account.findUniqueOrThrow({ where: { id } })).email, password: PASSWORD });
  return {
    fixture: {
      a,
      b,
      assignmentId: assignment.id,
      claimId: claim.id,
      runId: run.id,
      pullRequestId: pullRequest.externalId,
      inactiveId: a.accounts.ann3,
      removableId: a.accounts.ann3,
      settings: { annotatorsPerItem: study.annotatorsPerItem, reliabilitySetSize: study.reliabilitySetSize, assignmentSeed: study.assignmentSeed },
      studySettings: editableSettings(study),
      decisions: refs.map((r) => ({ pseudoReferenceId: r.id, action: "KEEP" as const })),
      roundsKey: "",
      generateKey: "",
      judgeRunId: "",
      tokenId: "",
      webhookId: "",
      deliveryId: "",
    },
    accounts: {
      annotator: await email(a.accounts.ann1),
      otherStudyAnnotator: await email(b.accounts.ann1),
      otherStudyLead: await email(b.accounts.lead),
      lead: await email(a.accounts.lead),
      admin: E2E_ACCOUNTS.admin,
    },
  };
}

/** A request context of a participant of study A: its crowd link, followed once, leaves their session in it. */
async function participantContext(f: Fixture): Promise<APIRequestContext> {
  await testDb().study.update({ where: { id: f.a.studyId }, data: { crowdOpen: true } });
  const context = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  const joined = await context.get(`/join/${f.a.slug}?pid=${MATRIX_PARTICIPANT}`, { maxRedirects: 0 });
  expect(joined.status(), await joined.text()).toBe(303);
  const session = (await (await context.get("/api/auth/session")).json()) as { user?: { name?: string } };
  expect(session.user?.name).toBe(`generic ${MATRIX_PARTICIPANT}`);
  return context;
}

/** A request context signed in through next-auth's credentials endpoint (no browser needed). */
async function signedInContext(account: { email: string; password: string } | null): Promise<APIRequestContext> {
  const context = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  if (!account) return context;
  const { csrfToken } = (await (await context.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await context.post("/api/auth/callback/credentials", { form: { csrfToken, email: account.email, password: account.password, json: "true" } });
  const session = (await (await context.get("/api/auth/session")).json()) as { user?: { email?: string } };
  expect(session.user?.email, `signed in as ${account.email}`).toBe(account.email);
  return context;
}

// ---------------------------------------------------------------------------------------------

test("every route handler, page and server action has an entry in the matrix, and every entry exists", () => {
  expect(existingRoutes().sort()).toEqual(Object.keys(ROUTES).sort());
  expect(existingPages().sort()).toEqual(Object.keys(PAGES).sort());
  const actions = existingActions().sort();
  expect(actions).toEqual(Object.keys(ACTIONS).sort());
  expect([...builtActions().keys()].sort(), "the build's actions (rebuild after changing them)").toEqual(actions);
});

test("each kind of account gets the expected answer from every route, page and action; refused calls change nothing", async () => {
  test.setTimeout(600_000);
  const { fixture, accounts } = await setUp();
  const contexts = Object.fromEntries(
    await Promise.all(SUBJECTS.map(async (s) => [s, s === "participant" ? await participantContext(fixture) : await signedInContext(s === "anonymous" ? null : accounts[s])] as const)),
  ) as Record<Subject, APIRequestContext>;
  const actionIds = builtActions();
  const failures: string[] = [];
  const groups: [Kind, Record<string, Entry>][] = [
    ["route", ROUTES],
    ["page", PAGES],
    ["action", ACTIONS],
  ];
  for (const [kind, entries] of groups) {
    for (const [key, entry] of Object.entries(entries)) {
      // Refused subjects first, so allowed calls (which may change rows) come after the checks.
      const order = [...SUBJECTS].sort((x, y) => Number(allowed(entry.access[x])) - Number(allowed(entry.access[y])));
      for (const subject of order) {
        await entry.prepare?.(fixture);
        const expected = entry.access[subject];
        const before = allowed(expected) ? null : await snapshot();
        const outcome = await perform(contexts[subject], kind, key, entry.call(fixture, subject), actionIds.get(key)?.id);
        if (!matches(outcome, expected)) failures.push(`${key} as ${subject}: expected ${JSON.stringify(expected)}, got ${"ok" in outcome ? outcome.text.slice(0, 200) : `${outcome.status} ${outcome.location}`}`);
        if (before) {
          const after = await snapshot();
          const changed = Object.keys(before).filter((t) => before[t] !== after[t]);
          if (changed.length) failures.push(`${key} as ${subject}: refused, yet changed ${changed.join(", ")}`);
        }
      }
    }
  }
  await Promise.all(Object.values(contexts).map((c) => c.dispose()));
  expect(failures).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// The takeover chain: another lead adds an annotator of the demo study to a study of theirs,
// which made the account one they managed, then resets its password and signs in as them.

/** Calls a server action by `file#export` as the context's account; its result. */
async function callAction(context: APIRequestContext, key: string, url: string, data: unknown): Promise<{ ok: boolean; error: string }> {
  const outcome = (await perform(context, "action", key, { url, data }, builtActions().get(key)?.id)) as { ok: boolean; text: string };
  const error = /"error":("(?:[^"\\]|\\.)*")/.exec(outcome.text);
  return { ok: outcome.ok, error: error ? (JSON.parse(error[1]) as string) : "" };
}

/** Whether next-auth signs this e-mail and password in. */
async function signsIn(email: string, password: string): Promise<boolean> {
  const context = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  const { csrfToken } = (await (await context.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await context.post("/api/auth/callback/credentials", { form: { csrfToken, email, password, json: "true" } });
  const session = (await (await context.get("/api/auth/session")).json()) as { user?: { email?: string } };
  await context.dispose();
  return session.user?.email === email;
}

test("another lead calling every action that adds the demo study's annotator, then every account action, leaves the annotator's password working and theirs refused", async () => {
  test.setTimeout(300_000);
  const db = testDb();
  const tag = `chain${Date.now()}`;
  // The intruder leads a study of their own, with an annotator and assignments.
  const own = await createAnnotationFixture(db, tag);
  await db.account.update({ where: { id: own.accounts.lead }, data: { role: "LEAD", passwordHash: await hashPassword(PASSWORD) } });
  process.env.DATABASE_URL ??= process.env.E2E_DATABASE_URL;
  const { generateAssignments } = await import("@/lib/data/assignment-admin");
  await generateAssignments({ id: own.accounts.lead, role: "LEAD" }, own.slug, [own.accounts.ann1]);
  const assignment = await db.assignment.findFirstOrThrow({ where: { studyId: own.studyId }, select: { id: true } });
  // The victim: an annotator of the demo study, which the lead of the e2e accounts leads.
  const victimPassword = "victim-password-1";
  const victim = await addAccount({ email: `victim-${tag}@e2e.test`, name: "Victim", role: "ANNOTATOR", password: victimPassword }, db);
  const demo = await db.study.findUniqueOrThrow({ where: { slug: "demo" }, select: { id: true } });
  await db.studyMember.create({ data: { studyId: demo.id, accountId: victim.id, role: "ANNOTATOR" } });
  const victimRow = () => db.account.findUniqueOrThrow({ where: { id: victim.id }, select: { passwordHash: true, active: true, sessionVersion: true, name: true, role: true, memberships: { select: { studyId: true, role: true, pausedAt: true } } } });

  const intruder = await signedInContext({ email: (await db.account.findUniqueOrThrow({ where: { id: own.accounts.lead } })).email, password: PASSWORD });
  const demoLead = await signedInContext(E2E_ACCOUNTS.lead);
  const admin = await signedInContext(E2E_ACCOUNTS.admin);
  const taken = "taken-over-1";
  const accountActions: [string, unknown][] = [
    ["app/admin/accounts/actions.ts#resetPassword", { accountId: victim.id, password: taken }],
    ["app/admin/accounts/actions.ts#activateAccount", { accountId: victim.id, password: taken }],
    ["app/admin/accounts/actions.ts#deactivateAccount", { accountId: victim.id }],
    ["app/admin/accounts/actions.ts#reactivateAccount", { accountId: victim.id }],
    ["app/admin/accounts/actions.ts#createAccount", { email: victim.email, name: "Taken", role: "ANNOTATOR", password: taken }],
  ];
  const adding: [string, string, unknown][] = [
    ["app/studies/[slug]/members/actions.ts#addMember", `/studies/${own.slug}/members`, { slug: own.slug, email: victim.email, role: "ANNOTATOR" }],
    ["app/studies/[slug]/members/actions.ts#addMember", `/studies/${own.slug}/members`, { slug: own.slug, email: victim.email, role: "LEAD" }],
    ["app/studies/[slug]/assignments/actions.ts#previewGeneration", `/studies/${own.slug}/assignments`, { slug: own.slug, annotatorIds: [own.accounts.ann1, victim.id] }],
    ["app/studies/[slug]/assignments/actions.ts#generate", `/studies/${own.slug}/assignments`, { slug: own.slug, annotatorIds: [own.accounts.ann1, victim.id], confirm: "unconfirmed" }],
    ["app/studies/[slug]/assignments/actions.ts#reassign", `/studies/${own.slug}/assignments`, { slug: own.slug, assignmentId: assignment.id, toAnnotatorId: victim.id }],
    ["app/studies/[slug]/assignments/actions.ts#reassignOpen", `/studies/${own.slug}/assignments`, { slug: own.slug, fromAnnotatorId: own.accounts.ann1, toAnnotatorId: victim.id }],
    ["app/studies/[slug]/quality/actions.ts#pauseAnnotator", `/studies/${own.slug}/quality`, { slug: own.slug, annotatorId: victim.id, paused: true }],
    ...accountActions.map(([key, data]) => [key, "/admin/accounts", data] as [string, string, unknown]),
  ];
  try {
    const before = await victimRow();
    const failures: string[] = [];
    for (const [key, url, data] of adding) {
      const result = await callAction(intruder, key, url, data);
      if (result.ok) failures.push(`${key} ${JSON.stringify(data)}: accepted`);
    }
    expect(failures).toEqual([]);
    expect(await victimRow()).toEqual(before);
    // The refusal does not tell the victim's e-mail from one without an account.
    const asVictim = await callAction(intruder, adding[0][0], adding[0][1], adding[0][2]);
    const asNobody = await callAction(intruder, adding[0][0], adding[0][1], { slug: own.slug, email: `nobody-${tag}@e2e.test`, role: "ANNOTATOR" });
    expect(asVictim.error).not.toBe("");
    expect(asVictim.error).toBe(asNobody.error);
    expect(await signsIn(victim.email, victimPassword)).toBe(true);
    expect(await signsIn(victim.email, taken)).toBe(false);

    // Shared by an admin between the two leads' studies, the annotator is the admin's alone.
    expect((await callAction(admin, adding[0][0], adding[0][1], adding[0][2])).ok).toBe(true);
    const shared = await victimRow();
    for (const [who, context] of [["intruder", intruder], ["demo lead", demoLead]] as const)
      for (const [key, data] of accountActions) {
        const result = await callAction(context, key, "/admin/accounts", data);
        if (result.ok) failures.push(`${who} ${key} on the shared annotator: accepted`);
      }
    expect(failures).toEqual([]);
    expect(await victimRow()).toEqual(shared);
    expect(await signsIn(victim.email, victimPassword)).toBe(true);
    expect(await signsIn(victim.email, taken)).toBe(false);
  } finally {
    await Promise.all([intruder, demoLead, admin].map((c) => c.dispose()));
    await db.studyMember.deleteMany({ where: { accountId: victim.id } });
  }
});
