// Issue 39: the report's table of what an impaired link cost, from a real run (tests/integration/test_impairments_lab.py:
// the template "the same sweep at 1 % loss", kbhttp 2,000 req/s through lab-http, a clean point and a 1 % loss point).
import { render, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Point } from "../../api/types";
import LinkCostTable, { inForceText } from "./LinkCostTable";

const pt = (id: number, variant: string, extra: Record<string, unknown>, p99: number): Point =>
  ({
    id, attempt: 1, campaign_id: 5, seq: id - 1, variant, phase_index: 0, phase: "saturation", concurrency: 50, offered_rate: 2000,
    duration_s: 2, repeat: 0, status: "completed", error: null, warnings: [], extra, started_at: null, ended_at: null,
    metrics: { achieved_rate: 2000, latency_p99_ms: p99 },
  }) as Point; // prettier-ignore

const clean = pt(1, "clean link", { impairment: { in_force: {}, tcp_retransmissions: { host: 0, lab: 0 } } }, 1.17);
const lossy = pt(2, "1 % loss", {
  impairment: { in_force: { loss_permille: 10 }, tcp_retransmissions: { host: 76, lab: 73 },
                packets: { arrived: 8687, dropped: 82, dropped_pct: 0.944, per_side: {} } },
}, 211.2); // prettier-ignore

describe("the link's impairment and its cost", () => {
  it("shows each point's impairment, the packets the link dropped, the retransmissions and p99, clean beside lossy", () => {
    const { getByTestId } = render(<LinkCostTable points={[lossy, clean]} />);
    const rows = within(getByTestId("link-cost-table")).getAllByRole("row").slice(1).map((r) => r.textContent);
    expect(rows[0]).toContain("clean link");
    expect(rows[0]).toContain("none");
    expect(rows[0]).toContain("0 / 0");
    expect(rows[1]).toContain("loss 1 %");
    expect(rows[1]).toContain("82 of 8,687 (0.94 %)");
    expect(rows[1]).toContain("76 / 73");
    expect(rows[1]).toMatch(/211/);
  });

  it("is absent when no point's link was impaired (a lab campaign records retransmissions only)", () => {
    const { container } = render(<LinkCostTable points={[clean]} />);
    expect(container.innerHTML).toBe("");
  });

  it("says every impairment in force", () => {
    expect(inForceText({ loss_permille: 5, rate_mbit: 100 })).toBe("loss 0.5 %, 100 Mbit/s");
    expect(inForceText(undefined)).toBe("none");
  });
});
