/**
 * A fresh, migrated database on the embedded server, for integration and browser tests.
 * The test cluster lives in its own folder and port so tests never touch the product's data.
 */
import path from "node:path";
import pg from "pg";
import { embeddedUrl, startEmbeddedPostgres, type EmbeddedServer } from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/db/migrate";

export const TEST_CLUSTER = {
  dataDir: path.resolve(process.cwd(), ".data", "test-postgres"),
  port: Number(process.env.TEST_PG_PORT ?? 54339),
};

export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** Starts the test cluster (if needed) and creates a uniquely named, migrated database. */
export async function createTestDatabase(prefix: string): Promise<TestDatabase & { server: EmbeddedServer }> {
  const server = await startEmbeddedPostgres({ ...TEST_CLUSTER, database: "postgres" });
  const name = `${prefix}_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: embeddedUrl(TEST_CLUSTER.port, "postgres") });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = embeddedUrl(TEST_CLUSTER.port, name);
  await migrate(url);
  return {
    url,
    server,
    drop: async () => {
      const client = new pg.Client({ connectionString: embeddedUrl(TEST_CLUSTER.port, "postgres") });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
