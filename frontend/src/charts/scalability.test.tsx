// The scalability chart's tooltip, hovered as a reader would (Recharts in jsdom at 600 × 240).
import { fireEvent, render } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import type { Point, Usl } from "../api/types";
import { tool } from "../tools/__fixtures__";
import { fixedSizeCharts } from "./chartTesting";
import ScalabilityChart from "./ScalabilityChart";

beforeAll(fixedSizeCharts);

// dnsperf as GET /tools describes it: headline achieved_rate in qps, latency in ms
const TOOL = tool("dnsperf");
const USL = { sigma: 0.05, kappa: 0.002, lambda_: 3000, peak_concurrency: 21, peak_rate: null, r2: 0.99, amdahl_p: null, note: null } as unknown as Usl;
const point = (seq: number, concurrency: number, rate: number, repeat = 0) =>
  ({ id: seq + 1, seq, phase: "scalability", status: "completed", concurrency, offered_rate: concurrency * 3000, variant: null, repeat, duration_s: 10,
     metrics: { achieved_rate: rate, efficiency: rate / (concurrency * 3000) } }) as unknown as Point;  // prettier-ignore

/** Hover the plot at pixel x (the plot spans x = 60…588 for concurrency 1…8) and read the tooltip. */
async function hover(container: HTMLElement, x: number): Promise<string> {
  fireEvent.mouseMove(container.querySelector(".recharts-wrapper")!, { clientX: x, clientY: 100 });
  await new Promise((r) => setTimeout(r, 30));
  return container.querySelector(".recharts-tooltip-wrapper")?.textContent?.replace(/\s+/g, " ") ?? "";
}

describe("scalability tooltip", () => {
  const points = [point(0, 1, 2900), point(1, 2, 5600), point(2, 4, 10100), point(3, 8, 16000)];

  it("shows the measured point under the cursor, and the USL model apart", async () => {
    const { container } = render(<ScalabilityChart points={points} tool={TOOL} usl={USL} />);
    // just left of concurrency 4, where the fitted curve has a sample of its own (3.88)
    const text = await hover(container, 260);
    expect(text).toContain("concurrency 4");
    expect(text).toContain("point 3");
    expect(text).toMatch(/measured achieved: 10,100 qps/);
    expect(text).toMatch(/USL model at 4: [\d,]+ qps/);
    expect(text).not.toContain("3.88");
  });

  it("draws repeats as error bars and says their range", async () => {
    const repeated = [...points, point(4, 4, 9500, 1), point(5, 4, 10700, 2)];
    const { container } = render(<ScalabilityChart points={repeated} tool={TOOL} usl={USL} />);
    expect(container.querySelectorAll(".recharts-errorBar").length).toBeGreaterThan(0);
    const text = await hover(container, 267);
    expect(text).toContain("points 3, 5, 6");
    expect(text).toMatch(/measured achieved: 10,100 qps \(9,500–10,700 over 3 runs\)/);
  });
});
