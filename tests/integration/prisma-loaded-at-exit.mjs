/**
 * Preloaded (`node --import`) into a process under test: at exit it writes to stderr whether
 * Prisma's runtime was loaded ("prisma loaded: true|false"). The runtime is CommonJS, so its
 * load, whichever module imported it, leaves it in require's cache.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
process.on("exit", () => process.stderr.write(`prisma loaded: ${Object.keys(require.cache).some((file) => file.includes("@prisma/client/runtime"))}\n`));
