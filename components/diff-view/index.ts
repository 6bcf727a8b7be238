export { DiffView, type DiffMode } from "./diff-view";
export type { DiffSource } from "./model";
