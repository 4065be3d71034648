// Query keys, one family per resource, so mutations and live events can invalidate precisely.
export const keys = {
  targets: ["targets"] as const,
  target: (id: number) => ["targets", id] as const,
  plans: ["plans"] as const,
  plan: (id: number) => ["plans", id] as const,
  templates: ["plans", "templates"] as const,
  preview: (body: unknown) => ["plans", "preview", body] as const,
  campaigns: ["campaigns"] as const,
  campaignList: (filters: object) => ["campaigns", "list", filters] as const,
  campaign: (id: number) => ["campaigns", id] as const,
  campaignPoints: (id: number) => ["campaigns", id, "points"] as const,
  point: (id: number) => ["points", id] as const,
  samples: (id: number, series: string | undefined, maxPoints: number) => ["points", id, "samples", series ?? "*", maxPoints] as const,
  compare: (selectors: string[]) => ["compare", ...selectors] as const,
  agents: ["agents"] as const,
  health: ["health"] as const,
};
