import { afterEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { api } from "../../api/client";
import { keys } from "../../api/keys";
import type { PlanTemplate } from "../../api/types";
import { TOOLS } from "../../tools/__fixtures__";
import TemplatePicker from "./TemplatePicker";

const seed: PlanTemplate = {
  id: "dns-adguard-seed000",
  title: "AdGuard",
  description: "the three-dimension method",
  seed: "000",
  lab_targets: ["lab-adguard"],
  plan: { name: "AdGuard Home: three dimensions", tool: "dnsperf", phases: [{ kind: "baseline" }, { kind: "saturation" }] },
};

afterEach(() => vi.restoreAllMocks());

describe("template picker", () => {
  it("says a template's seed and lab targets, and hands over its quick look when asked", async () => {
    const quick = { ...seed, plan: { ...seed.plan, name: "AdGuard Home: three dimensions (quick look)" } };
    const get = vi.spyOn(api, "GET").mockResolvedValue({ data: quick, response: new Response() } as never);
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    client.setQueryData(keys.templates, [seed]);
    const onTemplate = vi.fn();
    render(
      <QueryClientProvider client={client}>
        <TemplatePicker tools={TOOLS} onTemplate={onTemplate} onBlank={() => undefined} />
      </QueryClientProvider>,
    );
    const card = screen.getByText("AdGuard").closest("article") as HTMLElement;
    expect(within(card).getByText("seed 000")).toBeTruthy();
    expect(within(card).getByText(/For the lab's lab-adguard/)).toBeTruthy();
    fireEvent.click(within(card).getByRole("button", { name: "Quick look" }));
    await waitFor(() => expect(onTemplate).toHaveBeenCalledTimes(1));
    expect(onTemplate.mock.calls[0][0].plan.name).toBe("AdGuard Home: three dimensions (quick look)");
    expect(get).toHaveBeenCalledWith("/api/v1/plans/templates/{template_id}", { params: { path: { template_id: "dns-adguard-seed000" }, query: { quick: true } } });
  });
});
