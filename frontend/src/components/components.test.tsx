import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { ApiError } from "../api/client";
import { mapValidationErrors } from "../api/errors";
import type { CampaignOut, Point } from "../api/types";
import PointsTable from "./campaign/PointsTable";
import ProgressBar, { queueMessage } from "./campaign/ProgressBar";
import ConfirmDialog from "./common/ConfirmDialog";
import PhaseEditor from "./plan/PhaseEditor";
import { blankPhase } from "./plan/planModel";
import TargetForm from "./targets/TargetForm";
import { planContext, tool } from "../tools/__fixtures__";

const progress = { done: 2, total: 6, failed: 0, cancelled: 0, elapsed_s: 12, eta_s: 30, running_point_id: null, queue_position: null };

describe("PhaseEditor", () => {
  it("shows the API's messages beside the fields they name", () => {
    const errors = mapValidationErrors(
      [
        { loc: ["body", "dnsperf", "phases", 0, "scalability", "concurrency", 1], msg: "Input should be greater than or equal to 1", type: "x" },
        { loc: ["body", "dnsperf", "phases", 0, "scalability", "duration_s"], msg: "Input should be greater than 0", type: "x" },
      ],
      planContext("dnsperf"),
    );
    render(
      <PhaseEditor phase={blankPhase("scalability", tool("dnsperf"))} index={0} count={1} tool={tool("dnsperf")} errors={errors} onChange={() => {}} onKind={() => {}} onMove={() => {}} onRemove={() => {}} />,
    );
    const conc = screen.getByLabelText("Concurrency list");
    expect(conc.getAttribute("aria-invalid")).toBe("true");
    const concErr = document.getElementById(conc.getAttribute("aria-describedby")!.split(" ")[0])!;
    expect(concErr.textContent).toContain("#2: Input should be greater than or equal to 1");
    const dur = screen.getByLabelText("Duration (s)");
    expect(document.getElementById(dur.getAttribute("aria-describedby")!)!.textContent).toContain("greater than 0");
  });

  it("offers list and range rates for a saturation phase and reports edits", () => {
    const onChange = vi.fn();
    render(<PhaseEditor phase={blankPhase("saturation", tool("dnsperf"))} index={2} count={3} tool={tool("dnsperf")} errors={{}} onChange={onChange} onKind={() => {}} onMove={() => {}} onRemove={() => {}} />);
    expect(screen.getByLabelText("From")).toBeTruthy();
    fireEvent.click(screen.getByLabelText("list"));
    expect(onChange).toHaveBeenCalledWith({ rateMode: "list" });
    fireEvent.change(screen.getByLabelText("Step"), { target: { value: "500" } });
    expect(onChange).toHaveBeenCalledWith({ rateStep: "500" });
  });

  it("lists the phase's point events it keeps, with the API's message on them", () => {
    const events = [{ at_s: 10, action: "lab.backend_kill", value: "b2" }, { at_s: 12, action: "host.haproxy_disable", value: "servers/b2", observer: "lb-1" }];
    const errors = mapValidationErrors(
      [{ loc: ["body", "kbhttp", "phases", 0, "events"], msg: "Value error, observer: no observer credential is named 'lb-1'", type: "x" }],
      planContext("kbhttp"),
    );
    render(<PhaseEditor phase={{ ...blankPhase("stability", tool("kbhttp")), kept: { events } }} index={0} count={1} tool={tool("kbhttp")} errors={errors} onChange={() => {}} onKind={() => {}} onMove={() => {}} onRemove={() => {}} />);
    const listed = screen.getByTestId("phase-events");
    expect([...listed.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "at 10 s: lab.backend_kill b2",
      "at 12 s: host.haproxy_disable servers/b2 on observer lb-1",
      "observer: no observer credential is named 'lb-1'",
    ]);
  });

  it("shows no rate for a closed-loop tool", () => {
    const closed = tool("wrk");
    expect(closed.takes_rate).toBe(false);
    render(<PhaseEditor phase={blankPhase("baseline", closed)} index={0} count={1} tool={closed} errors={{}} onChange={() => {}} onKind={() => {}} onMove={() => {}} onRemove={() => {}} />);
    expect(screen.queryByText(/Offered rate/)).toBeNull();
  });

  it("says a rate in a prefixed unit back, and names the tool's concurrency", () => {
    const net = tool("iperf3");
    render(<PhaseEditor phase={{ ...blankPhase("baseline", net), rate: "1250000000" }} index={0} count={1} tool={net} errors={{}} onChange={() => {}} onKind={() => {}} onMove={() => {}} onRemove={() => {}} />);
    expect(screen.getByText("= 1.25 Gbit/s")).toBeTruthy();
    expect(screen.getByText("Offered rate (bit/s)")).toBeTruthy();
    expect(screen.getByText("streams")).toBeTruthy();
  });
});

describe("TargetForm", () => {
  it("submits on Enter with a numeric port", () => {
    const onSubmit = vi.fn();
    render(<TargetForm onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "unbound" } });
    fireEvent.change(screen.getByLabelText("Port"), { target: { value: "5354" } });
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ name: "unbound", kind: "dns", port: 5354, tags: [] }));
  });

  it("shows a 422 beside the port and a 409 on the form", () => {
    const err = new ApiError(422, [{ loc: ["body", "port"], msg: "Input should be less than or equal to 65535", type: "x" }]);
    const { rerender } = render(<TargetForm onSubmit={() => {}} error={err} />);
    const port = screen.getByLabelText("Port");
    expect(port.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Input should be less than or equal to 65535")).toBeTruthy();
    rerender(<TargetForm onSubmit={() => {}} error={new ApiError(409, "a target with this name exists")} />);
    expect(screen.getByRole("alert").textContent).toContain("a target with this name exists");
  });

  it("sends the metrics URL (null when empty) and shows its 422 beside it", () => {
    const onSubmit = vi.fn();
    const { rerender } = render(<TargetForm onSubmit={onSubmit} />);
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ metrics_url: null }));
    fireEvent.change(screen.getByLabelText("Metrics URL"), { target: { value: " http://10.77.0.2:9100/metrics " } });
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ metrics_url: "http://10.77.0.2:9100/metrics" }));
    const err = new ApiError(422, [{ loc: ["body", "metrics_url"], msg: "192.0.2.1 is not allowed by the target policy", type: "x" }]);
    rerender(<TargetForm onSubmit={onSubmit} error={err} />);
    expect(screen.getByLabelText("Metrics URL").getAttribute("aria-invalid")).toBe("true");
  });
});

describe("ProgressBar", () => {
  const campaign = { status: "running", agent: "local", progress } as unknown as CampaignOut;
  it("shows points done, elapsed and ETA", () => {
    render(<ProgressBar campaign={campaign} />);
    const bar = screen.getByRole("progressbar");
    expect(bar.getAttribute("aria-valuenow")).toBe("2");
    expect(screen.getByTestId("progress").textContent).toMatch(/2 \/ 6 points.*elapsed 12 s.*ETA 30 s/);
  });
  it("says how many campaigns are ahead when queued", () => {
    expect(queueMessage({ ...campaign, status: "queued", progress: { ...progress, queue_position: 2 } })).toBe("waiting for agent local, 2 campaigns ahead");
    expect(queueMessage({ ...campaign, status: "queued", progress: { ...progress, queue_position: 1 } })).toBe("waiting for agent local, 1 campaign ahead");
    expect(queueMessage(campaign)).toBeNull();
  });
});

describe("PointsTable", () => {
  const pt = (seq: number, achieved: number, status = "completed", error: string | null = null): Point =>
    ({ id: seq + 10, attempt: 0, campaign_id: 1, seq, variant: null, phase_index: 0, phase: "saturation", concurrency: 20, offered_rate: achieved, duration_s: 20, repeat: 0, status, error, warnings: [], metrics: { achieved_rate: achieved, efficiency: 1, latency_avg_ms: 0.5, loss_pct: 0 }, extra: {}, started_at: null, ended_at: null }) as Point;
  it("sorts by a column and shows why a point failed", () => {
    render(<PointsTable points={[pt(0, 500), pt(1, 2000), pt(2, 1000, "failed", "dnsperf exited 1: connection refused")]} tool={tool("dnsperf")} />);
    const rows = () => screen.getAllByRole("row").slice(1).map((r) => within(r).getAllByRole("cell")[1].textContent);
    expect(rows()).toEqual(["1", "2", "3"]);
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent?.trim())).toContain("Efficiency (achieved / offered)");
    fireEvent.click(screen.getByRole("button", { name: /Achieved/ }));
    expect(rows()).toEqual(["1", "3", "2"]);
    fireEvent.click(screen.getByRole("button", { name: /Achieved/ }));
    expect(rows()).toEqual(["2", "3", "1"]);
    expect(screen.getByText("dnsperf exited 1: connection refused")).toBeTruthy();
  });
});

describe("ConfirmDialog", () => {
  it("confirms, and closes on Escape", () => {
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    render(<ConfirmDialog open title="Cancel this campaign?" confirmLabel="Cancel campaign" onConfirm={onConfirm} onClose={onClose} />);
    expect(document.activeElement?.textContent).toBe("Keep going");
    fireEvent.click(screen.getByRole("button", { name: "Cancel campaign" }));
    expect(onConfirm).toHaveBeenCalled();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(onClose).toHaveBeenCalled();
  });
});
