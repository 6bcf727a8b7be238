import { hash } from "node:crypto";

/** Key of a text in the embedding cache: hex SHA-256 of its UTF-8 bytes (the one-shot hash: a hasher object per text costs more than hashing a sentence). */
export function textHash(text: string): string {
  return hash("sha256", text, "hex");
}
