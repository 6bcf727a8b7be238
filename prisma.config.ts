// Prisma CLI configuration. The JavaScript (WebAssembly) schema engine and the pg driver
// adapter need no engine download, so generate / migrate work offline (see README).
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "" }),
});
