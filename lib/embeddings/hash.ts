import { createHash } from "node:crypto";

/** Key of a text in the embedding cache: hex SHA-256 of its UTF-8 bytes. */
export function textHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
