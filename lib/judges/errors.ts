/** Errors of the LLM judges. None of them ever contains an API key. */
import { AppError } from "@/lib/errors";

/** No OpenAI-compatible endpoint is configured; there is deliberately no offline fallback. */
export class LlmNotConfiguredError extends AppError {
  constructor(detail = "set LLM_URL (and LLM_MODEL) to an OpenAI-compatible endpoint") {
    // INVALID_INPUT: a run asking for a judge cannot be done as asked until the operator sets one.
    super("INVALID_INPUT", { message: `LLM judge not configured: ${detail}` });
    this.name = "LlmNotConfiguredError";
  }
}

/**
 * A chat-completions request failed for good: a non-retryable answer, or retryable failures
 * (429, 5xx, timeouts, network errors) on every allowed attempt. `status` is the last HTTP
 * status, null when no response arrived.
 */
export class LlmRequestError extends Error {
  constructor(
    message: string,
    readonly endpoint: string,
    readonly status: number | null,
    readonly attempts: number,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "LlmRequestError";
  }
}

/** The model answered, but not with a score the prompt asked for. `output` is the raw answer. */
export class JudgeParseError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
    this.name = "JudgeParseError";
  }
}
