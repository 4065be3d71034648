// Issue 50 item 4: the report shows how repeat until decided's verdict evolved and why it stopped.
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import UntilDecidedPanel from "./UntilDecidedPanel";

describe("UntilDecidedPanel", () => {
  it("shows each pass's verdict and the reason it stopped", () => {
    const record = {
      reference: "minimal", passes: 3, spent_s: 41.6, stopped: "decided", max_passes: 16, budget_s: 75,
      variants: { log_file: { level: 0.05, margin_pct: 5, metrics: { server_cost: {
        verdict: "worse", passes: 3, effect_pct: 14.2, low_pct: 6.1, high_pct: 22.9, history: ["undecided", "undecided", "worse"] } } } },
    };
    render(<UntilDecidedPanel record={record} />);
    expect(screen.getByText(/3 passes in 42 s of points \(at most 16, budget 75 s\)/)).toBeTruthy();
    expect(screen.getByText("decided")).toBeTruthy();
    expect(screen.getByText("undecided → undecided → worse")).toBeTruthy();
    expect(screen.getByText("+14.2 % (+6.1 % … +22.9 %)")).toBeTruthy();
  });

  it("shows nothing for a campaign without the option", () => {
    const { container } = render(<UntilDecidedPanel record={undefined} />);
    expect(container.innerHTML).toBe("");
  });
});
