// Issue 34: the report says when the load generator shared the server's host, and which autogroup setting was in force.
import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import HostSharingNotice from "./HostSharingNotice";

const note =
  "the load generator shares this host with the server (loopback); kernel.sched_autogroup_enabled=1: near saturation the latency depends on how the scheduler groups the two";

describe("host sharing notice", () => {
  it("says nothing when the generator ran elsewhere (or an older campaign has no such fact)", () => {
    const { rerender } = render(<HostSharingNotice campaign={{ host_sharing: null }} />);
    expect(screen.queryByTestId("host-sharing-note")).toBeNull();
    rerender(<HostSharingNotice campaign={{}} />);
    expect(screen.queryByTestId("host-sharing-note")).toBeNull();
  });
  it("shows the API's note: where the two shared the host and the autogroup setting", () => {
    render(<HostSharingNotice campaign={{ host_sharing: { shares_host: "yes (loopback)", sched_autogroup_enabled: "1", note } }} />);
    const shown = screen.getByTestId("host-sharing-note");
    expect(shown.getAttribute("role")).toBe("note");
    expect(shown.textContent).toBe(
      "Shared host. The load generator shares this host with the server (loopback); kernel.sched_autogroup_enabled=1: near saturation the " +
        "latency depends on how the scheduler groups the two.",
    );
  });
});
