import Link from "next/link";

export default function Forbidden() {
  return (
    <div className="rounded border border-red-200 bg-red-50 p-6" role="alert">
      <h1 className="text-lg font-semibold text-red-800">Not allowed</h1>
      <p className="mt-2 text-sm text-red-700">Your account&apos;s role may not open this page. Study pages, dashboards and exports are for study leads.</p>
      <Link href="/" className="mt-4 inline-block text-sm underline">
        Back to your assignments
      </Link>
    </div>
  );
}
