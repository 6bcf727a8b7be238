/** Accounts of the browser-test database (demo annotators come from the demo seed). */
export const E2E_ACCOUNTS = {
  admin: { email: "admin@e2e.test", password: "admin-password-1" },
  lead: { email: "lead@e2e.test", password: "lead-password-1" },
  ann1: { email: "ann1@demo.local", password: "demo-annotator" },
  ann2: { email: "ann2@demo.local", password: "demo-annotator" },
} as const;
