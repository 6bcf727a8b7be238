import { redirect } from "next/navigation";
import { isLead, requirePageUser } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function Home() {
  const user = await requirePageUser();
  redirect(isLead(user) ? "/studies" : "/annotate");
}
