/** Whether the database answers: the health route's one statement. */
import "server-only";
import { db } from "@/lib/db/client";

/** Resolves when the database answers a trivial statement; rejects with the driver's error otherwise. */
export async function pingDatabase(): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
