/**
 * Every environment variable the product reads, checked in one place: env() parses them the
 * first time it is called (each process calls it as it starts: scripts/start.ts, web.ts,
 * worker.ts and the CLI) and reports every problem at once; modules read the parsed values from
 * it, never process.env. The README's configuration table lists the same variables.
 *
 * An empty variable counts as unset.
 */
// zod/mini: the CLI and the worker parse the environment at every start, and the full zod's
// prototype methods would all be loaded (about 0.2 s of CPU) for these few checks.
import * as z from "zod/mini";
import { SetupError } from "@/lib/errors";

const trimmed = z.pipe(
  z.string(),
  z.transform((v) => v.trim()),
);
const whole = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.pipe(
    trimmed.check(z.regex(/^\d+$/, `a whole number${min > 0 ? ` of at least ${min}` : ""}`)),
    z.pipe(z.transform(Number), z.number().check(z.minimum(min, `at least ${min}`), z.maximum(max, `at most ${max}`))),
  );
/** Mebibytes, fractions allowed. */
const mebibytes = z.pipe(trimmed.check(z.regex(/^\d+(\.\d+)?$/, "a number of MiB (e.g. 64 or 0.5)")), z.transform(Number));
const urlOf = (protocol: RegExp, rule: string) => trimmed.check(z.refine((v) => URL.canParse(v) && protocol.test(new URL(v).protocol), rule));
const httpUrl = urlOf(/^https?:$/, "an absolute http(s) URL");
const postgresUrl = urlOf(/^postgres(ql)?:$/, "a postgresql:// connection URL");
const text = z.string();

const schema = z.object({
  // Database
  DATABASE_URL: z.optional(postgresUrl),
  CRJUDGE_DATA_DIR: z._default(text, ".data"),
  EMBEDDED_PG_PORT: z._default(whole(1, 65535), 54329),
  CRJUDGE_DB_POOL_SIZE: z.optional(whole(1)),
  CRJUDGE_DB_POOL_WAIT_MS: z._default(whole(1), 5000),
  CRJUDGE_SEED_DEMO: z._default(z.enum(["true", "false"], "true or false"), "true"),
  // Web server
  PORT: z._default(whole(1, 65535), 3000),
  HOST: z._default(text, "127.0.0.1"),
  CRJUDGE_WEB_PROCESSES: z._default(whole(1), 2),
  AUTH_SECRET: z.optional(text),
  /** next-auth's own name for AUTH_SECRET, read when AUTH_SECRET is not set. */
  NEXTAUTH_SECRET: z.optional(text),
  NEXTAUTH_URL: z.optional(httpUrl),
  TRUSTED_PROXIES: z._default(whole(0), 0),
  CRJUDGE_IMPORT_MAX_MB: z._default(mebibytes, 64),
  CRJUDGE_IMPORT_INLINE_MB: z._default(mebibytes, 2),
  CRJUDGE_REPORT_INLINE_LIMIT: z._default(whole(0), 5000),
  // First accounts
  ADMIN_EMAIL: z._default(text, "admin@localhost.test"),
  ADMIN_PASSWORD: z.optional(text),
  LEAD_EMAIL: z._default(text, "lead@localhost.test"),
  LEAD_PASSWORD: z.optional(text),
  // Metrics and judges
  EMBEDDINGS_URL: z.optional(httpUrl),
  EMBEDDINGS_MODEL: z.optional(text),
  EMBEDDINGS_API_KEY: z.optional(text),
  METRIC_WORKER_CONCURRENCY: z._default(whole(1), 1),
  LLM_URL: z.optional(text),
  LLM_MODEL: z.optional(text),
  LLM_API_KEY: z.optional(text),
  // Webhooks
  /** Hosts webhooks may reach although not public (comma-separated names or addresses, e.g. 127.0.0.1): lib/webhooks/target.ts. */
  CRJUDGE_WEBHOOK_ALLOWED_HOSTS: z._default(z.pipe(text, z.transform((v) => v.split(",").map((h) => h.trim()).filter(Boolean))), []),
  // Set by the product itself, not by the operator
  /** "embedded" or "external": which database resolveDatabase chose (db-status reports it). */
  CRJUDGE_DB_SOURCE: z.optional(z.enum(["embedded", "external"])),
  /** Set by `npm run bench -- cli-start`: the CLI notes when its command's work begins. */
  CRJUDGE_CLI_TRACE: z.optional(text),
  NODE_ENV: z.optional(text),
});

export type Env = z.output<typeof schema>;
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** Every variable the product reads. */
export const ENV_VARIABLES = Object.keys(schema.shape) as (keyof Env)[];
/** Those the product sets for its own processes (or Node does); the rest are the operator's, in the README's configuration table. */
export const SET_BY_THE_PRODUCT: readonly (keyof Env)[] = ["CRJUDGE_DB_SOURCE", "CRJUDGE_CLI_TRACE", "NODE_ENV"];

/** The variables of `source` parsed; SetupError listing every variable that is wrong and why. */
export function parseEnv(source: EnvSource): Env {
  const present = Object.fromEntries(ENV_VARIABLES.flatMap((name) => (source[name] === undefined || source[name] === "" ? [] : [[name, source[name]]])));
  const parsed = schema.safeParse(present);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${String(issue.path[0])}=${JSON.stringify(present[String(issue.path[0])])}: ${issue.message}`);
  if (present.EMBEDDINGS_URL && !present.EMBEDDINGS_MODEL) problems.push("EMBEDDINGS_URL is set but no model: set EMBEDDINGS_MODEL (e.g. mxbai-embed-large-v1)");
  if (parsed.success && problems.length === 0) return parsed.data;
  throw new SetupError(`The environment has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}:\n${problems.map((p) => `  ${p}`).join("\n")}`);
}

let parsed: { key: string; env: Env } | undefined;

/**
 * The process's environment, parsed on first use and again only when one of its variables
 * changed (about 10 µs to tell): resolveDatabase sets DATABASE_URL, tests set what they test.
 */
export function env(): Env {
  const key = ENV_VARIABLES.map((name) => process.env[name] ?? "").join("\0");
  if (parsed?.key !== key) parsed = { key, env: parseEnv(process.env) };
  return parsed.env;
}

/** The secret that signs session tokens (AUTH_SECRET, else NEXTAUTH_SECRET). */
export const authSecret = (config: Env = env()) => config.AUTH_SECRET ?? config.NEXTAUTH_SECRET;

/** DATABASE_URL, which every process has once the database is resolved (lib/db/resolve.ts). */
export function databaseUrl(config: Env = env()): string {
  if (!config.DATABASE_URL) throw new SetupError("DATABASE_URL is not set: start the product with `npm start`, which provides the embedded database.");
  return config.DATABASE_URL;
}
