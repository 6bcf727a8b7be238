import Link from "next/link";
import type { SessionAccount } from "@/lib/auth/authenticate";
import { SignOutButton } from "@/components/sign-out-button";

/**
 * The header on every page. Its links are not prefetched: each target is a dynamic page, which a
 * prefetch renders on the server (session and queries) on every page load, for a click that rarely follows.
 */
export function SiteHeader({ account }: { account: SessionAccount | null }) {
  const lead = account && (account.role === "LEAD" || account.role === "ADMIN");
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav className="mx-auto flex max-w-6xl items-center gap-4 px-4 py-2" aria-label="Main">
        <Link href="/" prefetch={false} className="font-semibold">
          CR Judge
        </Link>
        {account && (
          <>
            <Link href="/annotate" prefetch={false} className="text-sm text-slate-700 hover:underline">
              My assignments
            </Link>
            {lead && (
              <>
                <Link href="/studies" prefetch={false} className="text-sm text-slate-700 hover:underline">
                  Studies
                </Link>
                <Link href="/admin/accounts" prefetch={false} className="text-sm text-slate-700 hover:underline">
                  Accounts
                </Link>
              </>
            )}
            <Link href="/account" prefetch={false} className="ml-auto text-sm text-slate-500 hover:underline" data-testid="current-account">
              {account.name} · {account.role.toLowerCase()}
            </Link>
            <SignOutButton />
          </>
        )}
      </nav>
    </header>
  );
}
