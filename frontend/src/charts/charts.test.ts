import { describe, expect, it } from "vitest";
import { appendBounded, downsample, MAX_CHART_POINTS } from "./downsample";
import { PALETTE, colourAt } from "./palette";
import { sampleUsl, uslRate } from "./usl";
import { niceDomain, zoneBands } from "./zones";

describe("zoneBands", () => {
  const zones = [
    { zone: "green" as const, from_rate: 500, to_rate: 10000 },
    { zone: "yellow" as const, from_rate: 10000, to_rate: 13000 },
    { zone: "red" as const, from_rate: 13000, to_rate: 25000 },
  ];
  it("clips to the domain and runs the last zone to the edge", () => {
    expect(zoneBands(zones, [0, 30000]).map((b) => [b.zone, b.x1, b.x2])).toEqual([
      ["green", 500, 10000],
      ["yellow", 10000, 13000],
      ["red", 13000, 30000],
    ]);
    expect(zoneBands(zones, [2000, 12000]).map((b) => [b.zone, b.x1, b.x2])).toEqual([
      ["green", 2000, 10000],
      ["yellow", 10000, 12000],
    ]);
  });
  it("is empty without zones", () => {
    expect(zoneBands(null, [0, 1])).toEqual([]);
    expect(zoneBands([], [0, 1])).toEqual([]);
  });
  it("colours by zone", () => {
    expect(zoneBands(zones, [0, 30000])[0].fill).toBe("#16a34a");
  });
});

describe("USL", () => {
  const usl = { sigma: 0.05, kappa: 0.002, lambda_: 4000, peak_concurrency: Math.sqrt(0.95 / 0.002), peak_rate: null, r2: 0.99, amdahl_p: null, note: null };
  it("computes X(N)", () => {
    expect(uslRate(1, usl)).toBe(4000);
    expect(uslRate(8, usl)).toBeCloseTo((4000 * 8) / (1 + 0.05 * 7 + 0.002 * 8 * 7), 6);
    expect(uslRate(4, { sigma: null, kappa: 0, lambda_: 1 })).toBeNull();
  });
  it("samples the curve across the range, including the peak", () => {
    const pts = sampleUsl(usl, 1, 64);
    expect(pts[0].concurrency).toBe(1);
    expect(pts[pts.length - 1].concurrency).toBe(64);
    expect(pts.length).toBeGreaterThanOrEqual(64);
    const peak = pts.reduce((a, b) => (b.usl > a.usl ? b : a));
    expect(peak.concurrency).toBeCloseTo(usl.peak_concurrency, 3);
    for (let i = 1; i < pts.length; i++) expect(pts[i].concurrency).toBeGreaterThan(pts[i - 1].concurrency);
  });
  it("is empty without a fit", () => {
    expect(sampleUsl(null, 1, 10)).toEqual([]);
    expect(sampleUsl({ ...usl, lambda_: null }, 1, 10)).toEqual([]);
  });
});

describe("downsample guard", () => {
  it("leaves short series alone", () => {
    expect(downsample([1, 2, 3], 10)).toEqual([1, 2, 3]);
  });
  it("caps long series and keeps both ends", () => {
    const long = Array.from({ length: 10_000 }, (_, i) => i);
    const out = downsample(long);
    expect(out.length).toBe(MAX_CHART_POINTS);
    expect(out[0]).toBe(0);
    expect(out[out.length - 1]).toBe(9999);
  });
  it("bounds a live buffer", () => {
    let buf: number[] = [];
    for (let i = 0; i < 5000; i++) buf = appendBounded(buf, i, 100);
    expect(buf.length).toBeLessThanOrEqual(100);
    expect(buf[buf.length - 1]).toBe(4999);
  });
});

describe("palette", () => {
  it("has ten distinct colours and wraps", () => {
    expect(new Set(PALETTE).size).toBe(10);
    expect(colourAt(10)).toBe(PALETTE[0]);
  });
});

describe("niceDomain", () => {
  it("rounds to tick-friendly bounds", () => {
    expect(niceDomain(588, 912)).toEqual([500, 1000]);
    expect(niceDomain(1200, 16319)).toEqual([0, 20000]);
    expect(niceDomain(0.078, 0.161)).toEqual([0.06, 0.18]);
  });
  it("never goes below zero for positive data and widens a single value", () => {
    expect(niceDomain(5, 5)[0]).toBeGreaterThanOrEqual(0);
    expect(niceDomain(5, 5)[1]).toBeGreaterThan(5);
    expect(niceDomain(0, 0)).toEqual([0, 1]);
  });
});

describe("monitor pivot", () => {
  it("puts each CPU in its own column by time", async () => {
    const { pivot } = await import("./MonitorCharts");
    const samples: { t: number; series: string; values: Record<string, number | null> }[] = [
      { t: 100, series: "mpstat.cpu1", values: { soft: 5 } },
      { t: 100, series: "mpstat.cpu0", values: { soft: 98 } },
      { t: 101, series: "mpstat.cpu0", values: { soft: 97 } },
      { t: 100, series: "mpstat.all", values: { soft: 50 } },
      { t: 100, series: "point", values: { achieved_rate: 1 } },
    ];
    const out = pivot(samples, "soft", (s) => s.startsWith("mpstat.cpu"));
    expect(out.series).toEqual(["mpstat.cpu0", "mpstat.cpu1"]);
    expect(out.rows).toEqual([
      { s: 0, "mpstat.cpu1": 5, "mpstat.cpu0": 98 },
      { s: 1, "mpstat.cpu0": 97 },
    ]);
  });
});
