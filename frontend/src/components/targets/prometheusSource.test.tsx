import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client";
import type { ExporterPack, PrometheusServer, Target } from "../../api/types";
import TargetForm from "./TargetForm";

const packs = [
  { name: "coredns", title: "CoreDNS", description: "", queries: [] },
  { name: "process", title: "Server process", description: "", queries: [] },
] as ExporterPack[];
const servers = [
  { id: 1, name: "team", url: "https://prometheus.example.com", auth: "bearer", username: null, scrape_interval_s: 15, remote_write: false },
  { id: 2, name: "lab", url: "http://10.77.0.9:9090", auth: "none", username: null, scrape_interval_s: 1, remote_write: true },
] as PrometheusServer[];

const change = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("TargetForm Prometheus source", () => {
  it("picks a registered server, packs with a selector and a query of its own, and sends them", () => {
    const onSubmit = vi.fn();
    render(<TargetForm onSubmit={onSubmit} packs={packs} servers={servers} />);
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ prometheus: null }));
    expect(screen.getByRole("option", { name: "lab (http://10.77.0.9:9090)" })).toBeTruthy();
    change("Prometheus server", "lab");
    change("Label selector", ' {job="coredns"} ');
    fireEvent.click(screen.getByLabelText("PromQL pack process"));
    fireEvent.click(screen.getByText("Add query"));
    change("Query 1 name", "upstream_p99");
    change("Query 1 unit", "ms");
    change("Query 1 PromQL", "1000 * histogram_quantile(0.99, sum by (le) (rate(x_bucket[30s])))");
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({
      prometheus: { server: "lab", selector: '{job="coredns"}', packs: ["process"],
                    queries: [{ name: "upstream_p99", unit: "ms", query: "1000 * histogram_quantile(0.99, sum by (le) (rate(x_bucket[30s])))" }] },
    }));
    change("Prometheus server", "");
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ prometheus: null }));
  });

  it("shows a target's source, keeps what it does not edit, and puts each 422 on its field", () => {
    const target = { id: 1, name: "dns", kind: "dns", host: "127.0.0.1", port: 53, tags: [], notes: "", metrics_url: null, exporters: [],
      prometheus: { server: "team", selector: '{job="coredns"}', packs: ["coredns"],
                    queries: [{ name: "qps", query: "sum(rate(x[30s]))", unit: "q/s", better: "higher", by: [] }] } } as unknown as Target;
    const error = new ApiError(422, [
      { loc: ["body", "prometheus", "server"], msg: "no Prometheus named 'gone' (registered: team, lab)", type: "value_error" },
      { loc: ["body", "prometheus", "selector"], msg: "Value error, not a label matcher: job=", type: "value_error" },
      { loc: ["body", "prometheus", "queries", 0, "query"], msg: "String should match pattern", type: "string_pattern_mismatch" },
      { loc: ["body", "prometheus"], msg: "Value error, name packs or queries to read", type: "value_error" },
    ]);
    const onSubmit = vi.fn();
    render(<TargetForm target={target} onSubmit={onSubmit} packs={packs} servers={servers} error={error} />);
    expect((screen.getByLabelText("Prometheus server") as HTMLSelectElement).value).toBe("team");
    expect((screen.getByLabelText("PromQL pack coredns") as HTMLInputElement).checked).toBe(true);
    expect(screen.getByLabelText("Prometheus server").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("no Prometheus named 'gone' (registered: team, lab)")).toBeTruthy();
    expect(screen.getByLabelText("Label selector").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("not a label matcher: job=")).toBeTruthy();
    expect(screen.getByLabelText("Query 1 PromQL").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("name packs or queries to read")).toBeTruthy();
    expect(screen.getByLabelText("Query 1 name").getAttribute("aria-invalid")).toBeNull();
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({
      prometheus: { server: "team", selector: '{job="coredns"}', packs: ["coredns"],
                    queries: [{ name: "qps", query: "sum(rate(x[30s]))", unit: "q/s", better: "higher", by: [] }] },
    }));
  });
});
