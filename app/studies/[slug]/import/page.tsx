import Link from "next/link";
import { notFound } from "next/navigation";
import { ImportForm } from "@/components/import/import-form";
import { LEAD_ROLES, requirePageAccount } from "@/lib/auth/session";
import { canImportInto } from "@/lib/data/study-access";

export const dynamic = "force-dynamic";

export default async function ImportPage({ params }: { params: Promise<{ slug: string }> }) {
  const account = await requirePageAccount(LEAD_ROLES);
  const { slug } = await params;
  if (!(await canImportInto(account, slug))) notFound();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Import into {slug}</h1>
      <p className="text-sm text-slate-600">
        Every import runs in one transaction: either all of it is written or nothing. Preview first to see what will be created and every error. Re-importing the same files changes nothing.{" "}
        <Link href={`/studies/${slug}`} prefetch={false} className="underline">
          Back to the study
        </Link>
      </p>
      <ImportForm slug={slug} />
    </div>
  );
}
