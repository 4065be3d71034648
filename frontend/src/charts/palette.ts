// A fixed, colour-blind-aware palette (Okabe–Ito first, then Tableau-like tones): 10 distinct campaigns.
export const PALETTE = [
  "#0072B2", // blue
  "#E69F00", // orange
  "#009E73", // green
  "#CC79A7", // pink
  "#D55E00", // vermillion
  "#56B4E9", // sky
  "#6B4C9A", // purple
  "#8C6D31", // brown
  "#333333", // near black
  "#B8A200", // olive yellow
] as const;

export function colourAt(i: number): string {
  return PALETTE[((i % PALETTE.length) + PALETTE.length) % PALETTE.length];
}

export const ZONE_FILL: Record<string, string> = { green: "#16a34a", yellow: "#eab308", red: "#dc2626" };
