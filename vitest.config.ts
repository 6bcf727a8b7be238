import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * "server-only" (imported by lib/db and lib/data) as in Next's server code: its empty module
 * (scripts/server-only.mjs says why). The CLI and worker the tests start from their sources get
 * the same through NODE_OPTIONS.
 */
const alias = { "@": fileURLToPath(new URL(".", import.meta.url)), "server-only": fileURLToPath(new URL("node_modules/server-only/empty.js", import.meta.url)) };
process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ""} --import=${new URL("scripts/server-only.mjs", import.meta.url).href}`.trim();

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], testTimeout: 60_000 },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/integration/global-setup.ts"],
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
