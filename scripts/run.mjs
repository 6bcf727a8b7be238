/**
 * `node scripts/run.mjs cli|worker [args]`: runs the CLI or the metric worker from its prebuilt
 * bundle (scripts/bundle.mjs), rebuilding it first if a source changed.
 */
import { pathToFileURL } from "node:url";
import { ensureBundle } from "./bundle.mjs";

const [name, ...args] = process.argv.slice(2);
const bundle = await ensureBundle(name);
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);
