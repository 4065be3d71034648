import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../api/client";
import type { ExporterPack, Target } from "../../api/types";
import TargetForm from "./TargetForm";

const packs = [
  { name: "coredns", title: "CoreDNS", description: "", queries: [] },
  { name: "process", title: "Server process", description: "", queries: [] },
] as ExporterPack[];

describe("TargetForm exporters", () => {
  it("adds an exporter with the packs the API lists and sends it", () => {
    const onSubmit = vi.fn();
    render(<TargetForm onSubmit={onSubmit} packs={packs} />);
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ exporters: [] }));
    fireEvent.click(screen.getByText("Add exporter"));
    fireEvent.change(screen.getByLabelText("Exporter 1 name"), { target: { value: " coredns " } });
    fireEvent.change(screen.getByLabelText("Exporter 1 URL"), { target: { value: "http://10.77.0.2:9153/metrics" } });
    fireEvent.click(screen.getByLabelText("coredns"));
    fireEvent.click(screen.getByLabelText("process"));
    fireEvent.click(screen.getByLabelText("process"));
    fireEvent.submit(screen.getByRole("form"));
    expect(onSubmit).toHaveBeenLastCalledWith(
      expect.objectContaining({ exporters: [{ name: "coredns", url: "http://10.77.0.2:9153/metrics", packs: ["coredns"] }] }),
    );
  });

  it("shows a target's exporters and a 422 beside the URL it names", () => {
    const target = { id: 1, name: "dns", kind: "dns", host: "127.0.0.1", port: 53, tags: [], notes: "", metrics_url: null,
      created_at: "", exporters: [{ name: "dns", url: "http://192.0.2.1:9153/metrics", packs: ["coredns"] }] } as unknown as Target;
    const err = new ApiError(422, [{ loc: ["body", "exporters", 0, "url"], msg: "192.0.2.1 is not allowed by the target policy", type: "x" }]);
    render(<TargetForm target={target} onSubmit={() => {}} packs={packs} error={err} />);
    expect((screen.getByLabelText("Exporter 1 URL") as HTMLInputElement).value).toBe("http://192.0.2.1:9153/metrics");
    expect(screen.getByLabelText("Exporter 1 URL").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("192.0.2.1 is not allowed by the target policy")).toBeTruthy();
    expect((screen.getByLabelText("coredns") as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByText("Remove exporter 1"));
    expect(screen.queryByLabelText("Exporter 1 URL")).toBeNull();
  });
});
