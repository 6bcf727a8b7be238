// One fresh, migrated database per test run on the embedded PostgreSQL test cluster.
import type { TestProject } from "vitest/node";
import { createTestDatabase } from "@/lib/db/test-database";

export default async function setup(project: TestProject) {
  const database = await createTestDatabase("crjudge_vitest");
  process.env.DATABASE_URL = database.url;
  project.provide("databaseUrl", database.url);
  return async () => {
    await database.drop();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
