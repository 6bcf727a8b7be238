/** Series colours of the dashboard charts (Tailwind 600 shades). */
export const PALETTE = ["#2563eb", "#059669", "#d97706", "#dc2626", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];
