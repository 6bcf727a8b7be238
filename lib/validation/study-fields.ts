/** Study fields edited on more than one page (assignments, settings): one rule each. */
import { z } from "zod";

export const annotatorsPerItemField = z.coerce.number().int().min(1, "at least 1 annotator per item").max(50);
