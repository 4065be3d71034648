// A fixed, colour-blind-aware palette (Okabe–Ito first, then Tableau-like tones): 10 distinct campaigns.
// The colours themselves are CSS variables (--series-0 … --series-9 in styles.css), lighter in the dark theme.
export const PALETTE = Array.from({ length: 10 }, (_, i) => `var(--series-${i})`);

export function colourAt(i: number): string {
  return PALETTE[((i % PALETTE.length) + PALETTE.length) % PALETTE.length];
}

export const ZONE_FILL: Record<string, string> = { green: "#16a34a", yellow: "#eab308", red: "#dc2626" };
