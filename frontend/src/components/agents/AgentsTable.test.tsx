import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import type { Agent } from "../../api/types";
import { AgentRows } from "./AgentsTable";

const base: Agent = { name: "local", hostname: "box", tools: { dnsperf: "2.10.0" }, facts: {}, last_heartbeat: "2026-11-25T10:00:00Z", alive: true, status: "alive" };

describe("AgentRows", () => {
  it("shows a remote agent's facts and a silent agent's health", () => {
    const remote: Agent = { ...base, name: "a1", alive: false, status: "silent",
      facts: { remote: true, cpus: 8, addresses: ["10.0.0.5"], clock_offset_ms: -1.25, clock_rtt_ms: 0.4 } };
    const observer: Agent = { ...base, name: "o1", facts: { remote: true, role: "observer", cpus: 2 } };
    render(<AgentRows agents={[base, remote, observer]} />);
    const rows = screen.getByTestId("agents-table").querySelectorAll("tbody tr");
    expect(rows[0].textContent).toContain("local worker");
    expect(rows[1].textContent).toContain("remote (through the API)");
    expect(rows[2].textContent).toContain("observer (through the API)");
    expect(rows[1].textContent).toContain("10.0.0.5");
    expect(rows[1].textContent).toContain("-1.25 ms (round trip 0.4 ms)");
    expect(rows[1].querySelector(".badge.status-failed")?.textContent).toBe("silent");
  });
});
