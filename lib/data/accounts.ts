import { db } from "@/lib/db/client";

export function listAccounts() {
  return db.user.findMany({
    orderBy: [{ role: "asc" }, { email: "asc" }],
    select: { id: true, email: true, name: true, role: true, active: true, createdAt: true },
  });
}
