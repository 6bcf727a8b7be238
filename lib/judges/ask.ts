/** Asking a model for a score, re-asking when the answer cannot be read (GradedReviews §5.2, fourth measure). */
import type { ChatClient, ChatCompletion } from "./client";
import { JudgeParseError } from "./errors";
import type { ChatMessage } from "./types";

/** Every answer received (its text, and the completion with its usage, cost and cache state), and the parsed value of the last one when it could be read. */
export type Asked<T> = { ok: true; value: T; outputs: string[]; completions: ChatCompletion[] } | { ok: false; error: string; outputs: string[]; completions: ChatCompletion[] };

/**
 * Sends `messages` until `parse` accepts the answer, at most `attempts` times. Parse failures
 * (JudgeParseError) are re-asked (as separate samples of the client's cache: `tag.sample`
 * and the attempt) and finally reported in the result; transport failures
 * (LlmRequestError, after the client's own retries) and aborts are thrown.
 */
export async function askParsed<T>(
  client: ChatClient,
  messages: readonly ChatMessage[],
  parse: (text: string) => T,
  attempts: number,
  signal?: AbortSignal,
  tag: { promptVersion?: string; sample?: string } = {},
): Promise<Asked<T>> {
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`attempts must be a positive integer, got ${attempts}`);
  const outputs: string[] = [];
  const completions: ChatCompletion[] = [];
  let error = "";
  for (let i = 0; i < attempts; i++) {
    // Each ask is its own sample, so a cached unreadable answer is not served again.
    const completion = await client.complete({ messages, signal, promptVersion: tag.promptVersion, sample: `${tag.sample ?? ""}#${i}` });
    const { content } = completion;
    outputs.push(content);
    completions.push(completion);
    try {
      return { ok: true, value: parse(content), outputs, completions };
    } catch (e) {
      if (!(e instanceof JudgeParseError)) throw e;
      error = e.message;
    }
  }
  return { ok: false, error, outputs, completions };
}
