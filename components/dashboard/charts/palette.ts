/** Series colours of the dashboard charts (Tailwind 600 shades). */
export const PALETTE = ["#2563eb", "#059669", "#d97706", "#dc2626", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];

/** Colours of a codebook's categories (up to twelve told apart; c-CRAB §5.3 has ten), after ColorBrewer's Paired. */
export const CATEGORY_PALETTE = ["#1f78b4", "#a6cee3", "#33a02c", "#b2df8a", "#e31a1c", "#fb9a99", "#ff7f00", "#fdbf6f", "#6a3d9a", "#cab2d6", "#b15928", "#ffff99"];
