import Link from "next/link";

export default function NotFound() {
  return (
    <div className="rounded border border-slate-200 bg-white p-6">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-2 text-sm text-slate-600">There is nothing here, or it is not yours to see.</p>
      <Link href="/" className="mt-4 inline-block text-sm underline">
        Home
      </Link>
    </div>
  );
}
