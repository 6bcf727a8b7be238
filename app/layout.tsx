import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { getSessionAccount } from "@/lib/auth/session";
import "./globals.css";

export const metadata: Metadata = {
  title: "CR Judge: human judgments of code review quality",
  description: "Annotate and validate code review comments against pseudo-references",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const account = await getSessionAccount();
  return (
    <html lang="en">
      <body>
        <SiteHeader account={account} />
        <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
      </body>
    </html>
  );
}
