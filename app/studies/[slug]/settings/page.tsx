import Link from "next/link";
import { CommentQuestionsForm } from "@/components/comment-questions-editor";
import { StudySettingsForm } from "@/components/study-settings-form";
import { AddWebhookForm, WebhookPanel } from "@/components/webhook-forms";
import { crscoreCodebookTemplate } from "@/lib/annotation/guidelines-template";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { editableSettings, getStudySettings } from "@/lib/data/study-settings";
import { commentQuestionUsage } from "@/lib/data/comment-questions";
import { listWebhooks } from "@/lib/data/webhooks";
import { orPageError } from "@/lib/errors/page";
import { QualificationSettingsForm } from "@/components/qualification-forms";
import { goldAnswerCount } from "@/lib/data/qualification";
import { CrowdLinkForm } from "@/components/crowd-link-form";
import { WEBHOOK_EVENTS } from "@/lib/webhooks/events";
import { addStudyWebhook, removeStudyWebhook, resendWebhookDelivery, saveCommentQuestions, saveCrowdSettings, saveQualificationSettings, saveStudySettings } from "./actions";

export const dynamic = "force-dynamic";

/** The study's settings: what annotators see and how their work is planned, edited without invalidating stored work. */
export default async function StudySettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { study, usage } = await orPageError(getStudySettings(account, (await params).slug));
  const asksComments = study.tasks.includes("COMMENT_QUESTIONS");
  const hooks = await listWebhooks(account, study.slug);
  return (
    <div className="space-y-4">
      <div>
        <p className="text-sm">
          <Link href={`/studies/${study.slug}`} prefetch={false} className="text-blue-700 underline">
            {study.name}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Study settings</h1>
        <p className="text-sm text-slate-600">
          A change that would invalidate stored annotations (removing a task or a Likert dimension that has answers, changing the scale of scored ratings) is refused, with the number of
          answers it would affect.
        </p>
      </div>
      <StudySettingsForm
        slug={study.slug}
        initial={editableSettings(study)}
        usage={usage}
        template={crscoreCodebookTemplate()}
        save={saveStudySettings}
      />
      <section id="qualification" aria-labelledby="qualification-heading" className="space-y-2 border-t border-slate-200 pt-4">
        <h2 id="qualification-heading" className="text-lg font-medium">
          Qualification
        </h2>
        <p className="text-sm text-slate-600">
          Before their real items, annotators can be asked to accept a consent text, read the guidelines and answer gold items with feedback after each. Those who fail every attempt get no
          items, and their answers stay out of every statistic. Calibration rounds follow as before.
        </p>
        <QualificationSettingsForm
          slug={study.slug}
          initial={{ required: study.qualificationRequired, consent: study.qualificationConsent, goldItems: study.qualificationGoldItems, passMarkPercent: Math.round(study.qualificationPassMark * 100), maxAttempts: study.qualificationMaxAttempts }}
          goldAnswers={await goldAnswerCount(study.id)}
          save={saveQualificationSettings}
        />
      </section>
      <section id="crowd-link" aria-labelledby="crowd-link-heading" className="space-y-2 border-t border-slate-200 pt-4">
        <h2 id="crowd-link-heading" className="text-lg font-medium">
          Crowd link
        </h2>
        <p className="text-sm text-slate-600">
          Participants from Prolific, MTurk or another platform follow the link; each gets an account of this study alone (their platform id only, no e-mail or password), bound to their
          browser, takes the qualification if the study asks one, then their items, and sees the completion code at the end.
        </p>
        <CrowdLinkForm
          slug={study.slug}
          link={`/join/${study.slug}`}
          initial={{ open: study.crowdOpen, quota: study.crowdQuota, completionCode: study.crowdCompletionCode, completionUrl: study.crowdCompletionUrl, releaseMinutes: study.crowdReleaseMinutes }}
          save={saveCrowdSettings}
        />
      </section>
      <section id="comment-questions" aria-labelledby="comment-questions-heading" className="space-y-2 border-t border-slate-200 pt-4">
        <h2 id="comment-questions-heading" className="text-lg font-medium">
          Comment questions
        </h2>
        {asksComments ? (
          <>
            <p className="text-sm text-slate-600">
              What annotators answer about each review comment of the study&apos;s pull requests, in this order. Prompts, instructions, justification rules and new questions or options can
              change at any time; a question or codebook option with stored answers or lead decisions cannot be removed or renamed, and a question with answers keeps its kind.
            </p>
            <CommentQuestionsForm slug={study.slug} initial={study.commentQuestions} usage={await commentQuestionUsage(study.id)} save={saveCommentQuestions} />
          </>
        ) : (
          <p className="text-sm text-slate-600">The study has no comment questions task: tick Comment questions among the task types above and save to ask questions about review comments.</p>
        )}
      </section>
      <section id="webhooks" aria-labelledby="webhooks-heading" className="space-y-2 border-t border-slate-200 pt-4">
        <h2 id="webhooks-heading" className="text-lg font-medium">
          Webhooks
        </h2>
        <p className="text-sm text-slate-600">
          Each URL receives the study&apos;s events as JSON ({WEBHOOK_EVENTS.join(", ")}), signed in <code>X-Signature: sha256=…</code> with the hook&apos;s secret, with the event&apos;s id in{" "}
          <code>X-Event-Id</code>. A failed delivery is retried with growing waits for about a day. Only https URLs of public addresses, unless the operator allows the host.
        </p>
        <AddWebhookForm slug={study.slug} submit={addStudyWebhook} />
        {hooks.map((hook) => (
          <WebhookPanel
            key={hook.id}
            slug={study.slug}
            hook={{ ...hook, deliveries: hook.deliveries.map((d) => ({ ...d, lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null })) }}
            remove={removeStudyWebhook}
            resend={resendWebhookDelivery}
          />
        ))}
      </section>
    </div>
  );
}
