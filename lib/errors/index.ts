/**
 * The one error model. Domain and data code throw AppError with a code for what the account can put
 * right (a 4xx), or a named internal error (SetupError, InvariantError) for what they cannot, and
 * know nothing of HTTP; the code becomes an HTTP status here and only here (ERROR_STATUS). Route
 * handlers, server actions, pages and the CLI all read a thrown value through toAppError, so a ZodError
 * becomes INVALID_INPUT naming each field and why, and anything else (Prisma, SQL, a bug) a
 * generic message: its detail goes to the server log, never to the account.
 */
import type { ZodError } from "zod";
import { formatZodError } from "@/lib/validation/format";

export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Well-formed but not acceptable in its current state (e.g. an assignment not complete yet). */
  INCOMPLETE: 422,
  /** The target is locked against this change (e.g. a skipped assignment). */
  LOCKED: 423,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface AppErrorOptions {
  /** What happened, for the log and the CLI; also shown to accounts unless userMessage is given. */
  message: string;
  /** What a web account is told, when it must differ from `message`. */
  userMessage?: string;
  /** Extra fields of the JSON error body (e.g. both values of a save conflict). */
  details?: Record<string, unknown>;
  /** For RATE_LIMITED and UNAVAILABLE: the Retry-After the client should honour. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly userMessage: string;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.userMessage = options.userMessage ?? options.message;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * Faults that are not the account's have a name of their own and no code: toAppError makes them
 * INTERNAL (the generic message on the web, their own message in the log, the CLI and a job's
 * failure). A SetupError is the machine's: a program missing or failing, the database server or
 * its folder, a migration. An InvariantError is a state this code never makes: a bug.
 */
export class SetupError extends Error {
  override name = "SetupError";
}

export class InvariantError extends Error {
  override name = "InvariantError";
}

export const GENERIC_MESSAGE = "Something went wrong on the server. The error was logged; try again, or tell the operator if it persists.";

/** Prisma's errors carry a code P1xxx/P2xxx; matched by shape so this module needs no database. */
function prismaCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  return typeof code === "string" && typeof name === "string" && name.startsWith("PrismaClient") && /^P\d{4}$/.test(code) ? code : undefined;
}

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ECONNABORTED", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
/**
 * SQLSTATEs of a server that is going away or not taking connections: class 08 (connection
 * exception), 57P01 admin shutdown (a fast shutdown, or every backend after a crash), 57P02
 * crash shutdown, 57P03 cannot connect now (starting or shutting down), 53300 too many connections.
 */
const CONNECTION_SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** What Prisma's pg adapter calls such errors (DriverAdapterError's cause.kind). */
const CONNECTION_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** pg's own errors for a connection that ended under a query, or was already broken. */
const CONNECTION_MESSAGES = /^(Connection terminated( unexpectedly)?|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

/**
 * Whether the database connection was lost or could not be made, whichever layer reports it:
 * pg (a socket error, a SQLSTATE, its own message), Prisma's pg adapter (DriverAdapterError, with
 * the reason in its cause) or Prisma wrapping it (P2010 of a raw query, the adapter's error in
 * meta). Causes are followed only inside those two, so an HTTP client's refused connection (an
 * LLM endpoint's, a TypeError whose cause is ECONNREFUSED) is not taken for the database's.
 */
function isConnectionLoss(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== "object" || depth > 3) return false;
  const e = error as { name?: unknown; code?: unknown; originalCode?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  const codes = [e.code, e.originalCode].filter((c): c is string => typeof c === "string");
  if (codes.some((c) => SOCKET_CODES.has(c) || CONNECTION_SQLSTATE.test(c))) return true;
  if (typeof e.kind === "string" && CONNECTION_KINDS.has(e.kind)) return true;
  if (typeof e.message === "string" && CONNECTION_MESSAGES.test(e.message)) return true;
  const wrapper = typeof e.name === "string" && (e.name === "DriverAdapterError" || e.name.startsWith("PrismaClient"));
  return wrapper && (isConnectionLoss(e.cause, depth + 1) || isConnectionLoss(e.meta?.driverAdapterError, depth + 1));
}

/**
 * Zod's validation error, matched by shape like Prisma's: importing zod here would load it
 * (about 0.2 s of CPU) in every CLI command and worker start, even those that never validate.
 */
function isZodError(error: unknown): error is ZodError {
  return error instanceof Error && error.name === "ZodError" && Array.isArray((error as { issues?: unknown }).issues);
}

/** Any thrown value as an AppError; never puts database text or a stack into userMessage. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isZodError(error)) return new AppError("INVALID_INPUT", { message: formatZodError(error), details: { issues: error.issues }, cause: error });
  const detail = error instanceof Error ? error.message : String(error);
  const prisma = prismaCode(error);
  if (prisma === "P2002") return new AppError("CONFLICT", { message: detail, userMessage: "This conflicts with an existing record; reload and try again.", cause: error });
  if (prisma === "P2025") return new AppError("NOT_FOUND", { message: detail, userMessage: "Not found: it may have been removed meanwhile.", cause: error });
  // Saturation: every connection stayed busy for the whole pool wait
  // (CRJUDGE_DB_POOL_WAIT_MS): the pg pool's own timeouts (waiting, or opening a connection), or a transaction that could not start
  // in time or outlived its limit (P2028). Nothing was written; the client retries shortly.
  if (prisma === "P2028" || detail === "timeout exceeded when trying to connect" || detail === "Connection terminated due to connection timeout")
    return new AppError("UNAVAILABLE", { message: detail, userMessage: "The server is busy; nothing was saved. Retrying shortly is safe.", retryAfterSeconds: 1, cause: error });
  // Pool timeout, unreachable database, a connection lost under a statement (PostgreSQL
  // restarting, killed or shutting down): the server is overloaded or starting, not broken.
  if (prisma === "P2024" || prisma?.startsWith("P1") || (error as { name?: unknown } | null)?.name === "PrismaClientInitializationError" || isConnectionLoss(error))
    return new AppError("UNAVAILABLE", { message: detail, userMessage: "The database is busy or unreachable; try again in a moment.", retryAfterSeconds: 5, cause: error });
  return new AppError("INTERNAL", { message: detail, userMessage: GENERIC_MESSAGE, cause: error });
}

/** toAppError for answers to accounts: logs what they are not shown (server errors, with stack). */
export function publicError(error: unknown): AppError {
  const app = toAppError(error);
  if (app.status >= 500) console.error(app.cause ?? app);
  return app;
}
