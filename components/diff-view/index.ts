export { DiffView, type DiffMode } from "./diff-view";
