import type { ItemSetStatement } from "@/lib/analysis";

/** The items a report counts: all of the study, or a named item set with its kind and size (and the ids that matched nothing). */
export function ItemSetNote({ itemSet }: { itemSet: ItemSetStatement }) {
  return (
    <p className="text-sm" data-testid="item-set">
      <span className="font-medium">Items:</span>{" "}
      {itemSet.size === null ? (
        itemSet.name
      ) : (
        <>
          item set &ldquo;{itemSet.name}&rdquo; ({itemSet.kind}, {itemSet.size} ids)
          {itemSet.unmatched.length > 0 && (
            <span className="text-amber-800">
              {" "}
              · {itemSet.unmatched.length} match no rated item: {itemSet.unmatched.slice(0, 10).join(", ")}
              {itemSet.unmatched.length > 10 ? ", …" : ""}
            </span>
          )}
        </>
      )}
    </p>
  );
}

/** A select of the study's item sets for a dashboard's GET form (`set=NAME`; empty: all items). */
export function ItemSetSelect({ sets, value, className }: { sets: readonly { name: string; kind: string; size: number }[]; value: string | undefined; className?: string }) {
  return (
    <label className="flex flex-col">
      Items
      <select name="set" defaultValue={value ?? ""} className={className} aria-label="Item set">
        <option value="">all items of the study</option>
        {sets.map((s) => (
          <option key={s.name} value={s.name}>
            {s.name} ({s.kind}, {s.size})
          </option>
        ))}
      </select>
    </label>
  );
}
