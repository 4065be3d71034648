import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { keys } from "../../api/keys";
import type { LabState } from "../../api/types";
import LabBanner from "./LabBanner";

function renderWith(state: LabState) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, refetchInterval: false } } });
  client.setQueryData(keys.lab, state);
  return render(
    <QueryClientProvider client={client}>
      <LabBanner />
    </QueryClientProvider>,
  );
}

const base: LabState = { present: false, reason: null, queues: null, services: [], cpu_count: 2, actions: [] };

describe("LabBanner", () => {
  it("says why the lab is missing", () => {
    renderWith({ ...base, reason: "not root (network namespaces need CAP_NET_ADMIN)" });
    expect(screen.getByTestId("lab-banner").textContent).toContain("Lab not available: not root");
  });

  it("lists the running services when the lab is up", () => {
    renderWith({ ...base, present: true, queues: 2, services: [{ name: "lab-dns", running: true }, { name: "lab-http", running: false }] });
    const text = screen.getByTestId("lab-banner").textContent ?? "";
    expect(text).toContain("2 queue(s)");
    expect(text).toContain("lab-dns");
    expect(text).not.toContain("lab-http");
  });
});
