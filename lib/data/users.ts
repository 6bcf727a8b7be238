/** Data access for accounts. */
import { z } from "zod";
import { hashPassword, passwordSchema } from "@/lib/auth/password";
import { db, type PrismaClient } from "@/lib/db/client";
import type { Role, User } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";

export const newUserSchema = z.object({
  email: z.email().transform((email) => email.toLowerCase()),
  name: z.string().trim().max(200).optional(),
  role: z.enum(["ADMIN", "LEAD", "ANNOTATOR"]),
  password: passwordSchema.optional(),
});
export type NewUser = z.input<typeof newUserSchema>;

/** Creates an account; without a password the account cannot sign in until one is set. */
export async function createUser(input: NewUser, client: Pick<PrismaClient, "user"> = db): Promise<User> {
  const data = newUserSchema.parse(input);
  const existing = await client.user.findUnique({ where: { email: data.email } });
  if (existing) throw new AppError("CONFLICT", { message: `A user with email ${data.email} already exists` });
  return client.user.create({
    data: {
      email: data.email,
      name: data.name || data.email.split("@")[0],
      role: data.role as Role,
      passwordHash: data.password ? await hashPassword(data.password) : null,
      active: data.password !== undefined,
    },
  });
}

/**
 * The account for an annotator named in an imported file (e.g. "marcus"): created inactive,
 * with no password, until a lead activates it.
 */
export async function findOrCreateImportedAnnotator(name: string, client: Pick<PrismaClient, "user"> = db): Promise<User> {
  const slug = name.trim().toLowerCase().replace(/[^a-z0-9._-]+/g, "-");
  const email = `${slug}@imported.invalid`;
  return client.user.upsert({
    where: { email },
    update: {},
    create: { email, name: name.trim(), role: "ANNOTATOR", active: false },
  });
}
