import Link from "next/link";

/**
 * The top of a study's sub-page: the way back to the study, the page's title, and what the page is
 * for (children). The way back is not prefetched: the overview is a dynamic page, rendered with its
 * queries for every prefetch.
 */
export function StudyPageHeader({ study, title, children }: { study: { slug: string; name: string }; title: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="space-y-2">
      <Link href={`/studies/${encodeURIComponent(study.slug)}`} prefetch={false} className="text-sm text-blue-700 hover:underline">
        ← {study.name}
      </Link>
      <h1 className="text-2xl font-semibold">{title}</h1>
      {children}
    </div>
  );
}
