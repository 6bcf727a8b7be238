/** Run by test-database.test.ts: creates a test database, says where, and waits to be killed. */
import { createTestDatabase } from "@/lib/db/test-database";

const database = await createTestDatabase(process.argv[2]);
console.log(database.url);
setInterval(() => undefined, 60_000);
