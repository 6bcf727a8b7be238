import { redirect } from "next/navigation";
import { isLead, requirePageAccount } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function Home() {
  const account = await requirePageAccount();
  redirect(isLead(account) ? "/studies" : "/annotate");
}
