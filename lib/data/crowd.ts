/**
 * Bulk operations for real crowds: accounts from a CSV file and assignments for
 * annotators named by email.
 *
 * Accounts from one CSV file (`create-account --from-csv`): columns email, role,
 * name and password, in any order; name and password may be empty (a missing password is
 * generated and returned once, never stored in clear). Every row is checked first; any error
 * refuses the whole file, listing each with its line and field. Otherwise all accounts are
 * created in one transaction, so a file is either fully applied or not at all.
 */
import "server-only";
import { hashPassword } from "@/lib/auth/password";
import { AppError } from "@/lib/errors";
import { db, Prisma, type PrismaClient } from "@/lib/db/client";
import { COMMAND_LINE } from "@/lib/data/study-access";
import { generateAssignments, type GenerateSummary } from "@/lib/data/assignment-admin";
import { newAccountSchema } from "@/lib/data/accounts";
import type { Role } from "@/lib/generated/prisma/client";
import { readCsv } from "@/lib/import/csv";
import { ErrorCollector, formatImportErrors } from "@/lib/import/errors";
import type { ImportFile } from "@/lib/import/file";
import { cell, findColumns, rowLocation } from "@/lib/import/sheet";
import { generatedPassword } from "@/lib/setup/first-start";

export interface CsvAccount {
  email: string;
  role: Role;
  name: string;
  /** Present only when generated here: the one time it can be read. */
  generatedPassword?: string;
}

const COLUMNS = { email: { name: "email" }, role: { name: "role" }, name: { name: "name", optional: true }, password: { name: "password", optional: true } } as const;

/** bcrypt reads only the first 72 bytes of a password. */
const MAX_PASSWORD_BYTES = 72;

const refusal = (errors: ErrorCollector) => new AppError("INVALID_INPUT", { message: `nothing was created:\n${formatImportErrors(errors.errors, errors.total)}` });

/** The accounts of the file, checked against each other and the existing accounts. */
async function readAccounts(file: ImportFile, client: Pick<PrismaClient, "account">): Promise<(CsvAccount & { password: string })[]> {
  const errors = new ErrorCollector();
  const sheet = readCsv(file, errors);
  const columns = sheet && findColumns(sheet, COLUMNS, errors);
  if (!sheet || !columns || !errors.empty) throw refusal(errors);
  if (sheet.rows.length === 0) throw new AppError("INVALID_INPUT", { message: `nothing was created: ${file.name} has no accounts below the header` });

  const accounts: (CsvAccount & { password: string; at: ReturnType<typeof rowLocation> })[] = [];
  const seen = new Map<string, number>();
  for (const row of sheet.rows) {
    const at = rowLocation(sheet, row);
    const password = cell(row, columns.password);
    const parsed = newAccountSchema.safeParse({
      email: cell(row, columns.email).trim(),
      role: cell(row, columns.role).trim().toUpperCase(),
      name: cell(row, columns.name).trim() || undefined,
      password: password === "" ? undefined : password,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors.add(at, String(issue.path[0] ?? "row"), issue.message);
      continue;
    }
    if (password !== "" && Buffer.byteLength(password, "utf8") > MAX_PASSWORD_BYTES) {
      errors.add(at, "password", `at most ${MAX_PASSWORD_BYTES} bytes in UTF-8 (bcrypt ignores anything longer)`);
      continue;
    }
    const { email, role } = parsed.data;
    const first = seen.get(email);
    if (first !== undefined) errors.add(at, "email", `${email} is already on row ${first}`);
    seen.set(email, first ?? row.row);
    const generated = password === "" ? generatedPassword() : undefined;
    accounts.push({ email, role, name: parsed.data.name || email.split("@")[0], password: generated ?? password, ...(generated ? { generatedPassword: generated } : {}), at });
  }
  const existing = new Set((await client.account.findMany({ where: { email: { in: accounts.map((a) => a.email) } }, select: { email: true } })).map((u) => u.email));
  for (const account of accounts) if (existing.has(account.email)) errors.add(account.at, "email", `an account with email ${account.email} already exists`);
  if (!errors.empty) throw refusal(errors);
  return accounts.map(({ at: _at, ...account }) => account);
}

export async function addAccountsFromCsv(file: ImportFile, client: PrismaClient = db): Promise<CsvAccount[]> {
  const accounts = await readAccounts(file, client);
  // Hashing (about 60 ms each) happens before the transaction, which then only inserts.
  const hashes = await Promise.all(accounts.map((a) => hashPassword(a.password)));
  try {
    await client.$transaction((tx) => tx.account.createMany({ data: accounts.map((a, i) => ({ email: a.email, name: a.name, role: a.role, passwordHash: hashes[i], active: true })) }));
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new AppError("CONFLICT", { message: "nothing was created: an account with one of these emails was created meanwhile; run the command again to see which", cause: error });
    throw error;
  }
  return accounts.map(({ password: _password, ...account }) => account);
}

/**
 * Generates a study's assignments (lib/annotation/assignment-plan) for the annotators with these
 * emails, or for every active annotator. As on the assignments page, the named annotators are the
 * plan's whole set: pending assignments of anyone left out are removed, started ones are kept.
 */
export async function assignByEmail(slug: string, annotators: { emails: readonly string[] } | { allAnnotators: true }, client: Pick<PrismaClient, "account"> = db): Promise<GenerateSummary> {
  let ids: string[];
  if ("allAnnotators" in annotators) {
    ids = (await client.account.findMany({ where: { role: "ANNOTATOR", active: true }, select: { id: true } })).map((u) => u.id);
    if (ids.length === 0) throw new AppError("INVALID_INPUT", { message: "There is no active annotator account; create some first (create-account --from-csv)." });
  } else {
    const emails = [...new Set(annotators.emails.map((e) => e.trim().toLowerCase()).filter((e) => e !== ""))];
    if (emails.length === 0) throw new AppError("INVALID_INPUT", { message: "No annotator email given." });
    const accounts = await client.account.findMany({ where: { email: { in: emails } }, select: { id: true, email: true, active: true } });
    const byEmail = new Map(accounts.map((u) => [u.email, u]));
    const unknown = emails.filter((e) => !byEmail.has(e));
    const inactive = emails.filter((e) => byEmail.get(e)?.active === false);
    const problems = [unknown.length ? `no account with email ${unknown.join(", ")}` : "", inactive.length ? `inactive account${inactive.length > 1 ? "s" : ""} ${inactive.join(", ")}` : ""].filter(Boolean);
    if (problems.length) throw new AppError("INVALID_INPUT", { message: `Nothing was assigned: ${problems.join("; ")}.` });
    ids = emails.map((e) => byEmail.get(e)!.id);
  }
  // The command line runs with the operator's rights, an admin's (every study).
  return generateAssignments(COMMAND_LINE, slug, ids);
}
