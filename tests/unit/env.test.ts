import { readFileSync } from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { databaseUrl, env, ENV_VARIABLES, parseEnv, SET_BY_THE_PRODUCT } from "@/lib/env";
import { SetupError } from "@/lib/errors";

describe("environment", () => {
  afterEach(() => {
    delete process.env.CRJUDGE_REPORT_INLINE_LIMIT;
  });

  test("defaults for what is unset or empty, values parsed", () => {
    const parsed = parseEnv({ PORT: "8080", CRJUDGE_IMPORT_MAX_MB: "0.5", HOST: "", LLM_URL: "http://h/v1" });
    expect(parsed).toMatchObject({ PORT: 8080, CRJUDGE_IMPORT_MAX_MB: 0.5, HOST: "127.0.0.1", CRJUDGE_DB_POOL_WAIT_MS: 5000, TRUSTED_PROXIES: 0, ADMIN_EMAIL: "admin@localhost.test", LLM_URL: "http://h/v1" });
    expect(parsed.CRJUDGE_DB_POOL_SIZE).toBeUndefined();
    expect(parsed.DATABASE_URL).toBeUndefined();
  });

  test("every problem is reported at once, each with its variable, value and rule", () => {
    let error: unknown;
    try {
      parseEnv({ PORT: "80x", CRJUDGE_DB_POOL_SIZE: "0", DATABASE_URL: "mysql://h/db", NEXTAUTH_URL: "judge.example.org", CRJUDGE_SEED_DEMO: "no", EMBEDDINGS_URL: "http://e/v1" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SetupError);
    const lines = (error as Error).message.split("\n");
    expect(lines[0]).toBe("The environment has 6 problems:");
    expect(lines.slice(1)).toEqual([
      '  DATABASE_URL="mysql://h/db": a postgresql:// connection URL',
      '  CRJUDGE_DB_POOL_SIZE="0": at least 1',
      '  CRJUDGE_SEED_DEMO="no": true or false',
      '  PORT="80x": a whole number of at least 1',
      '  NEXTAUTH_URL="judge.example.org": an absolute http(s) URL',
      "  EMBEDDINGS_URL is set but no model: set EMBEDDINGS_MODEL (e.g. mxbai-embed-large-v1)",
    ]);
  });

  test("env() parses the process's environment once, and again when a variable changed", () => {
    process.env.CRJUDGE_REPORT_INLINE_LIMIT = "7";
    const first = env();
    expect(first.CRJUDGE_REPORT_INLINE_LIMIT).toBe(7);
    expect(env()).toBe(first);
    process.env.CRJUDGE_REPORT_INLINE_LIMIT = "8";
    expect(env().CRJUDGE_REPORT_INLINE_LIMIT).toBe(8);
    process.env.CRJUDGE_REPORT_INLINE_LIMIT = "eight";
    expect(() => env()).toThrow('CRJUDGE_REPORT_INLINE_LIMIT="eight": a whole number');
  });

  test("DATABASE_URL: one check, one message", () => {
    expect(() => databaseUrl(parseEnv({}))).toThrow("DATABASE_URL is not set: start the product with `npm start`");
    expect(databaseUrl(parseEnv({ DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db" }))).toBe("postgresql://u:p@127.0.0.1:5432/db");
  });

  test("the README's configuration table lists exactly the variables an operator sets", () => {
    const readme = readFileSync("README.md", "utf8");
    const table = readme.slice(readme.indexOf("| variable | meaning | default |"));
    const rows = table.slice(0, table.indexOf("\n\n"));
    const documented = new Set([...rows.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((v) => v[1])));
    expect([...documented].sort()).toEqual(ENV_VARIABLES.filter((name) => !SET_BY_THE_PRODUCT.includes(name)).sort());
  });
});
