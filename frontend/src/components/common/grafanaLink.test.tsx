import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CampaignOut } from "../../api/types";
import ReportHeading from "../campaign/ReportHeading";

const campaign = { id: 42, name: "sweep", tool: "dnsperf", status: "completed", partial: false, target: { name: "dns" },
  created_at: "2026-11-27T04:00:00Z", started_at: "2026-11-27T04:00:00Z", ended_at: "2026-11-27T04:05:00Z" } as unknown as CampaignOut;

describe("a report's Grafana link", () => {
  it("is the URL the API gives, opened apart", () => {
    const href = "https://ops.example.com/d/kneeboard-prometheus/kneeboard-load-and-servers?orgId=1&from=1795752000000&to=1795752300000&var-campaign=42";
    render(<ReportHeading campaign={{ ...campaign, grafana_url: href }} tool={undefined} />);
    const link = screen.getByRole("link", { name: "Grafana" });
    expect(link.getAttribute("href")).toBe(href);
    expect(link.getAttribute("rel")).toContain("noopener");
  });

  it("is absent when the API gives none (GRAFANA_URL not set)", () => {
    render(<ReportHeading campaign={{ ...campaign, grafana_url: null }} tool={undefined} />);
    expect(screen.queryByRole("link", { name: "Grafana" })).toBeNull();
  });
});
