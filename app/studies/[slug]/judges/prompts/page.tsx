import Link from "next/link";
import { notFound } from "next/navigation";
import { TASK_LABELS } from "@/lib/annotation/task-labels";
import { PromptEditor } from "@/components/judges/judge-forms";
import { StudyPageHeader } from "@/components/study-page-header";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { judgePromptEditor } from "@/lib/data/judge-lab";
import { env } from "@/lib/env";
import { TEMPLATE_VARIABLES } from "@/lib/judges/rater-prompt";
import { judgePromptQuerySchema } from "@/lib/judge-runs/web";
import { addPromptVersion, previewPrompt, startJudgeRun } from "../actions";

export const dynamic = "force-dynamic";

/** A judge question's prompt versions (the study's, newest first, then the presets), the editor with its preview, and running a version. */
export default async function JudgePromptsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  const query = judgePromptQuerySchema.parse(await searchParams);
  const editor = await judgePromptEditor(account, slug, query);
  if (!editor) notFound();
  const { study, questions, task, question, versions } = editor;
  const base = `/studies/${encodeURIComponent(study.slug)}/judges/prompts`;
  return (
    <div className="space-y-6">
      <StudyPageHeader study={study} title="Judge prompts">
        <p className="text-sm text-slate-600">
          A judge rater&apos;s prompt is a template per question, each version named by the SHA-256 of its text. Variables: {TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(", ")}. The preview fills them
          from an item of the study, as the judge would receive it (no request is sent). Runs go to the worker; compare them in the{" "}
          <Link href={`/studies/${encodeURIComponent(study.slug)}/judges`} prefetch={false} className="text-blue-700 underline">
            judge lab
          </Link>
          .
        </p>
        <nav aria-label="Questions" className="space-y-1 text-sm">
          {questions.map((t) => (
            <p key={t.task} className="flex flex-wrap gap-3">
              <span className="font-medium">{TASK_LABELS[t.task]}:</span>
              {t.questions.map((q) => {
                const current = t.task === task && q.key === question?.key;
                return (
                  <Link key={q.key} href={`${base}?task=${t.task}&question=${encodeURIComponent(q.key)}`} prefetch={false} aria-current={current ? "page" : undefined} className={current ? "font-semibold" : "text-blue-700 hover:underline"}>
                    {q.key}
                  </Link>
                );
              })}
            </p>
          ))}
        </nav>
      </StudyPageHeader>
      {!task || !question ? (
        <p className="text-sm text-slate-500">The study has no question a judge can answer.</p>
      ) : (
        <>
          <h2 className="text-xl font-medium">
            {TASK_LABELS[task]}: {question.key}
          </h2>
          <p className="text-sm text-slate-600">{question.text}</p>
          <section aria-label="Versions" className="space-y-2">
            <h3 className="text-base font-semibold">Versions</h3>
            <ol className="space-y-1 text-sm" data-testid="prompt-versions">
              {versions.map((v) => (
                <li key={v.version} data-version={v.version}>
                  <details>
                    <summary className="cursor-pointer">
                      <code className="text-xs">{v.version.slice(0, 12)}</code> · {v.preset ? `preset ${v.preset}` : "the study's own"} · {v.createdAt ? `stored ${v.createdAt.toISOString().slice(0, 19).replace("T", " ")} UTC` : "not used yet"}
                    </summary>
                    <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded border border-slate-200 bg-white p-2 text-xs">{v.text}</pre>
                  </details>
                </li>
              ))}
            </ol>
          </section>
          <PromptEditor
            key={`${task}:${question.key}`}
            slug={study.slug}
            task={task}
            question={question.key}
            versions={versions.map((v) => ({ ...v, createdAt: v.createdAt?.toISOString() ?? null }))}
            defaultModel={env().LLM_MODEL ?? ""}
            save={addPromptVersion}
            preview={previewPrompt}
            start={startJudgeRun}
          />
        </>
      )}
    </div>
  );
}
