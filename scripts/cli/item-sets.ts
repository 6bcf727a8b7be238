/**
 * `npm run cli -- item-sets create|list|show|delete --study SLUG ...`: the study's named item sets
 * (lib/data/item-sets.ts), as the item sets page shows them. `create` reads a file of external ids,
 * one per line: CODE_CHANGE_ID, CODE_CHANGE_ID/REVIEW_ID or CODE_CHANGE_ID/CLAIM_ID.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { CliError, optionalFlag, requireFlag } from "@/lib/cli/args";
import type { Command } from "@/lib/cli/command";
import { createItemSet, deleteItemSet, ITEM_SET_KIND_LABEL, listItemSets, readItemSet } from "@/lib/data/item-sets";
import { COMMAND_LINE } from "@/lib/data/study-access";
import type { ItemSetKind } from "@/lib/generated/prisma/enums";

/** `held-out`, `HELD_OUT` or `calibration batch`. */
function parseKind(value: string): ItemSetKind {
  const kinds = Object.entries(ITEM_SET_KIND_LABEL) as [ItemSetKind, string][];
  const wanted = value.trim().toLowerCase().replace(/[_\s]+/g, "-");
  const found = kinds.find(([kind, label]) => kind.toLowerCase().replace(/_/g, "-") === wanted || label.replace(/\s+/g, "-") === wanted);
  if (!found) throw new CliError(`unknown kind "${value}"; kinds: ${kinds.map(([kind]) => kind.toLowerCase().replace(/_/g, "-")).join(", ")}`);
  return found[0];
}

const command: Command = {
  name: "item-sets",
  usage: "item-sets create --study SLUG --name NAME --kind reliability|calibration|held-out|custom --file FILE [--description TEXT] | list --study SLUG | show --study SLUG --name NAME | delete --study SLUG --name NAME",
  async run(args) {
    const [action, ...extra] = args.positional;
    if (extra.length > 0) throw new CliError(`unexpected argument ${extra.join(" ")}`);
    const slug = requireFlag(args, "study");
    switch (action) {
      case "create": {
        const file = requireFlag(args, "file");
        return createItemSet(COMMAND_LINE, {
          slug,
          name: requireFlag(args, "name"),
          kind: parseKind(requireFlag(args, "kind")),
          description: optionalFlag(args, "description") ?? "",
          fileName: path.basename(file),
          text: readFileSync(file, "utf8"),
        });
      }
      case "list":
        return (await listItemSets(COMMAND_LINE, slug)).sets;
      case "show":
        return readItemSet(COMMAND_LINE, slug, requireFlag(args, "name"));
      case "delete":
        return deleteItemSet(COMMAND_LINE, { slug, name: requireFlag(args, "name") });
      default:
        throw new CliError(`item-sets needs an action: create, list, show or delete${action ? ` (not "${action}")` : ""}`);
    }
  },
};
export default command;
