// The variants editor learns the lab's actions from GET /api/v1/lab (the real answer's actions, lab-actions.json).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { LAB_ACTIONS, LAB_STATE } from "./__fixtures__/lab";
import { blankVariant, variantFromApi, type VariantDraft } from "./planModel";
import VariantsEditor from "./VariantsEditor";

// the typed client, pointed at a mock fetch (openapi-fetch keeps the fetch it was made with)
const fetchMock = vi.hoisted(() => vi.fn<(req: Request) => Promise<Response>>());
vi.mock("../../api/client", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../../api/client")>();
  const { default: createClient } = await import("openapi-fetch");
  return { ...orig, api: createClient({ baseUrl: "http://kb.test", fetch: (req: Request) => fetchMock(req) }) };
});

const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { "content-type": "application/json" } });

/** The editor over `initial`, its state kept, the lab API answering `lab` (GET /api/v1/lab only). */
function renderEditor(initial: VariantDraft[], lab: () => Response = () => json(LAB_STATE)) {
  fetchMock.mockImplementation(async (req: Request) => (new URL(req.url).pathname === "/api/v1/lab" ? lab() : json({ detail: "not here" }, 404)));
  const seen: VariantDraft[][] = [];
  function Host() {
    const [variants, setVariants] = useState(initial);
    seen.push(variants);
    return <VariantsEditor variants={variants} errors={{}} onChange={setVariants} />;
  }
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Host />
    </QueryClientProvider>,
  );
  return () => seen[seen.length - 1];
}

const options = (el: HTMLElement) => [...(el as HTMLSelectElement).options].map((o) => o.textContent);

describe("variants editor: the lab's actions from the API", () => {
  beforeEach(() => {
    fetchMock.mockReset();
  });

  it("lists every action GET /api/v1/lab gives, with a value input that fits its type", async () => {
    const latest = renderEditor([]);
    await waitFor(() => expect(screen.queryByTestId("lab-actions-note")).toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "+ variant" }));
    expect(latest()[0].settings[0]).toMatchObject({ action: "lab.veth_queues", kind: "int", value: "1" });
    const action = screen.getByLabelText("Setting 1 of variant 1");
    expect(options(action)).toEqual(LAB_ACTIONS.map((a) => a.name));
    // an int: a number input within the API's range
    const count = screen.getByLabelText("lab.veth_queues value");
    expect([count.getAttribute("type"), count.getAttribute("min"), count.getAttribute("max")]).toEqual(["number", "1", "2"]);
    expect(screen.getByTestId("variant-0-setting-0").textContent).toContain("(1…2)");
    // the new AdGuard action: its choices, its default first and marked, and its value sent as a name
    fireEvent.change(action, { target: { value: "lab.adguard_config" } });
    expect(options(screen.getByLabelText("lab.adguard_config value"))).toEqual(["querylog_off (default)", "querylog_on"]);
    expect(latest()[0].settings[0]).toMatchObject({ action: "lab.adguard_config", kind: "name", value: "querylog_off" });
    // a switch: on/off
    fireEvent.click(screen.getByRole("button", { name: "+ setting" }));
    expect(options(screen.getByLabelText("Setting 2 of variant 1"))).not.toContain("lab.adguard_config"); // set already
    fireEvent.change(screen.getByLabelText("Setting 2 of variant 1"), { target: { value: "lab.gro" } });
    expect(options(screen.getByLabelText("lab.gro value"))).toEqual(["on", "off"]);
    fireEvent.change(screen.getByLabelText("lab.gro value"), { target: { value: "off" } });
    expect(latest()[0].settings[1]).toMatchObject({ action: "lab.gro", kind: "bool", value: "off" });
  });

  it("keeps a loaded plan's unknown action visible, with its value, beside the listed ones", async () => {
    const loaded = variantFromApi({ label: "old", set: { "lab.gone": 3, "lab.coredns_config": "log_file" } });
    renderEditor([loaded]);
    await screen.findByText(/restarted with a named configuration/);
    const gone = screen.getByTestId("variant-0-setting-0");
    expect(options(within(gone).getByLabelText("Setting 1 of variant 1"))).toContain("lab.gone (unknown)");
    expect((within(gone).getByLabelText("Setting 1 of variant 1") as HTMLSelectElement).value).toBe("lab.gone");
    expect((within(gone).getByLabelText("lab.gone value") as HTMLInputElement).value).toBe("3");
    expect(gone.textContent).toContain("not an action the lab lists");
    expect((screen.getByLabelText("lab.coredns_config value") as HTMLSelectElement).value).toBe("log_file");
  });

  it("says why there are no actions when the API fails, and adds no setting", async () => {
    renderEditor([blankVariant([], [])], () => json({ detail: "lab state unavailable" }, 500));
    await waitFor(() => expect(screen.getByTestId("lab-actions-note").textContent).toBe("Could not load the lab's actions: lab state unavailable"));
    expect(screen.getByRole("button", { name: "+ setting" })).toHaveProperty("disabled", true);
  });
});
