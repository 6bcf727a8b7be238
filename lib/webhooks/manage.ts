/** What a lead does with a study's webhooks on its settings page: add one (its URL checked first), remove one, resend a delivery. */
import type { SessionAccount } from "@/lib/auth/authenticate";
import { addWebhook, resendDelivery } from "@/lib/data/webhooks";
import { sendQueue } from "@/lib/jobs/queue";
import { queueDeliveries } from "./send";
import { checkTarget } from "./target";

type Lead = Pick<SessionAccount, "id" | "role">;

/** Adds a hook whose URL passes the SSRF checks; its secret, which the receiver verifies signatures with. */
export async function addCheckedWebhook(lead: Lead, slug: string, url: string): Promise<{ id: string; secret: string }> {
  const target = await checkTarget(url);
  return addWebhook(lead, slug, target.url.href);
}

/** Sends a delivery again, its retries starting over. */
export async function resend(lead: Lead, slug: string, deliveryId: string): Promise<void> {
  await queueDeliveries(await sendQueue(), [await resendDelivery(lead, slug, deliveryId)]);
}
