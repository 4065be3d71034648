// Issue 50 item 4: the plan editor offers repeat until decided with its explanation, and sends what the API takes.
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import UntilDecidedEditor from "./UntilDecidedEditor";

describe("UntilDecidedEditor", () => {
  it("turns the option on with its defaults and says why it may look after every pass", () => {
    const onChange = vi.fn();
    render(<UntilDecidedEditor value={undefined} errors={{}} onChange={onChange} />);
    expect(screen.getByText(/stays ≤ 5 %/)).toBeTruthy();
    fireEvent.click(screen.getByRole("checkbox"));
    expect(onChange).toHaveBeenCalledWith({ metrics: ["server_cost"], margin_pct: 5, max_passes: 20 });
  });

  it("edits the metrics as a list and shows the API's error on them", () => {
    const onChange = vi.fn();
    const errors = { "until_decided.metrics.0": ["dnsperf measures no x"] };
    render(<UntilDecidedEditor value={{ metrics: ["server_cost"], max_passes: 8 }} errors={errors} onChange={onChange} />);
    fireEvent.change(screen.getByDisplayValue("server_cost"), { target: { value: "server_cost, latency_p99_ms" } });
    expect(onChange).toHaveBeenCalledWith({ metrics: ["server_cost", "latency_p99_ms"], max_passes: 8 });
    expect(screen.getByText(/measures no x/)).toBeTruthy();
  });
});
