/** An empty database of its own on the integration tests' server, for tests that must not write to the shared one. */
import pg from "pg";
import { inject } from "vitest";

async function onServer(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject("databaseUrl").replace(/\/[^/?]+(\?|$)/, "/postgres$1") });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** Creates it; `drop` removes it with whatever is still connected. */
export async function scratchDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now()}`;
  await onServer(`CREATE DATABASE "${name}"`);
  return { url: inject("databaseUrl").replace(/\/[^/?]+(\?|$)/, `/${name}$1`), drop: () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
