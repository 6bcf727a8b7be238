import bcrypt from "bcryptjs";
import { z } from "zod";

/** bcrypt with cost 10: about 60 ms a hash in pure JavaScript on these machines. */
const COST = 10;

export const MIN_PASSWORD_LENGTH = 8;
/** bcrypt reads only the first 72 bytes of a password and silently ignores the rest. */
export const MAX_PASSWORD_BYTES = 72;

/** The one rule for every password that is set (admin page, CLI, first start). */
export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must have at least ${MIN_PASSWORD_LENGTH} characters`)
  .refine((password) => Buffer.byteLength(password, "utf8") <= MAX_PASSWORD_BYTES, {
    message: `Password must be at most ${MAX_PASSWORD_BYTES} bytes in UTF-8 (bcrypt ignores anything longer); choose a shorter one`,
  });

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(passwordSchema.parse(password), COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
