import Link from "next/link";
import { QualificationAnswerForm, QualificationStepButton } from "@/components/qualification-forms";
import { Markdown } from "@/components/workspace/markdown";
import { requirePageAccount } from "@/lib/auth/session";
import { qualificationView } from "@/lib/data/qualification";
import { orPageError } from "@/lib/errors/page";
import { answerGold, takeStep } from "./actions";

export const dynamic = "force-dynamic";

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** A study's qualification: consent, the guidelines, then gold items with feedback after each, before the real items open. */
export default async function QualificationPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(["ANNOTATOR"]);
  const view = await orPageError(qualificationView(account, (await params).slug));
  const { study, step, question } = view;
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div>
        <p className="text-sm text-slate-600">{study.name}</p>
        <h1 className="text-2xl font-semibold">Qualification</h1>
        <p className="text-sm text-slate-600">
          Before this study&apos;s items open: {study.consent.trim() !== "" && "accept the consent text, "}read the guidelines, then answer a few items whose answers are known, with
          feedback after each. Passing needs {percent(study.passMark)} right; you have {study.maxAttempts} attempt{study.maxAttempts === 1 ? "" : "s"}.
        </p>
      </div>
      {step.step === "none" && <p>This study asks no qualification: <Link href="/annotate" className="text-blue-700 underline">your assignments</Link>.</p>}
      {step.step === "consent" && (
        <section aria-label="Consent" className="space-y-2 rounded border border-slate-200 bg-white p-4">
          <h2 className="text-lg font-medium">Consent</h2>
          <div className="prose-sm max-h-96 overflow-auto" data-testid="consent-text">
            <Markdown source={study.consent} />
          </div>
          <QualificationStepButton slug={study.slug} step="consent" label="I accept" save={takeStep} />
        </section>
      )}
      {step.step === "guidelines" && (
        <section aria-label="Guidelines" className="space-y-2 rounded border border-slate-200 bg-white p-4">
          <h2 className="text-lg font-medium">Guidelines</h2>
          <div className="prose-sm max-h-[32rem] overflow-auto">{study.guidelines.trim() === "" ? <p>This study has no written guidelines.</p> : <Markdown source={study.guidelines} />}</div>
          <QualificationStepButton slug={study.slug} step="guidelines" label="I have read the guidelines" save={takeStep} />
        </section>
      )}
      {step.step === "question" && question && <QualificationAnswerForm slug={study.slug} question={question} save={answerGold} />}
      {step.step === "retry" && (
        <section aria-label="Attempt result" className="space-y-2 rounded border border-amber-300 bg-amber-50 p-4" data-testid="qualification-retry">
          <p>
            You answered {percent(step.score)} right, below the {percent(study.passMark)} needed. {step.attemptsLeft} attempt{step.attemptsLeft === 1 ? "" : "s"} left.
          </p>
          <QualificationStepButton slug={study.slug} step="retry" label="Try again" save={takeStep} />
        </section>
      )}
      {step.step === "passed" && (
        <p role="status" className="rounded border border-green-300 bg-green-50 p-3" data-testid="qualification-passed">
          You passed the qualification{view.score !== null && ` with ${percent(view.score)}`}. <Link href="/annotate" className="text-blue-700 underline">Go to your assignments</Link>.
        </p>
      )}
      {step.step === "failed" && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-3" data-testid="qualification-failed">
          You did not pass the qualification after {view.attempts} attempt{view.attempts === 1 ? "" : "s"}: this study&apos;s items stay closed to you. Thank you for your time.
        </p>
      )}
    </div>
  );
}
