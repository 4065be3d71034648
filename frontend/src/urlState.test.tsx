import { act, render, screen } from "@testing-library/react";
import { BrowserRouter, createMemoryRouter, RouterProvider } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { param, readUrlState, useUrlState, writeUrlState } from "./urlState";

const SCHEMA = {
  q: param.str(),
  page: param.int(1, 1),
  log: param.bool(),
  view: param.oneOf(["table", "chart"] as const, "table"),
  c: param.list(),
};

describe("readUrlState / writeUrlState", () => {
  it("reads typed values with defaults for what is absent or invalid", () => {
    expect(readUrlState(SCHEMA, new URLSearchParams("q=dns&page=3&log=1&view=chart&c=4&c=7"))).toEqual({
      q: "dns",
      page: 3,
      log: true,
      view: "chart",
      c: ["4", "7"],
    });
    expect(readUrlState(SCHEMA, new URLSearchParams("page=0&view=pie&page=x"))).toEqual({ q: "", page: 1, log: false, view: "table", c: [] });
  });
  it("leaves defaults out of the URL and keeps the keys it does not own", () => {
    const next = writeUrlState(SCHEMA, new URLSearchParams("other=x&q=old&page=4"), { q: "new", page: 1, log: false, c: ["2", "9"] });
    expect(next.toString()).toBe("other=x&q=new&c=2&c=9");
    expect(writeUrlState(SCHEMA, next, { q: "", c: [] }).toString()).toBe("other=x");
  });
  it("round-trips every value it writes", () => {
    const values = { q: "a b&c", page: 12, log: true, view: "chart" as const, c: ["12@1 queue", "3"] };
    expect(readUrlState(SCHEMA, writeUrlState(SCHEMA, new URLSearchParams(), values))).toEqual(values);
  });
});

function Probe() {
  const [v, set] = useUrlState(SCHEMA);
  return (
    <div>
      <output data-testid="v">{JSON.stringify(v)}</output>
      <button onClick={() => set({ page: v.page + 1 })}>next</button>
      <button onClick={() => set({ q: v.q + "x" }, { replace: true })}>type</button>
    </div>
  );
}

const KNEE = { "knee.pct": param.str("p99") };
const SCAL = { "scal.hide": param.list() };

/** Two charts' options on one page, set by one click before the router has rendered the first change. */
function TwoCharts() {
  const [knee, setKnee] = useUrlState(KNEE);
  const [scal, setScal] = useUrlState(SCAL);
  return (
    <div>
      <output data-testid="two">{JSON.stringify({ ...knee, ...scal })}</output>
      <button
        onClick={() => {
          setKnee({ "knee.pct": "p50" });
          setScal({ "scal.hide": ["efficiency"] });
        }}
      >
        both
      </button>
    </div>
  );
}

describe("useUrlState", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));
  it("keeps one view's change when another view changes before the router has rendered it (BrowserRouter)", async () => {
    window.history.replaceState(null, "", "/campaigns/7?variant=4+queues");
    render(
      <BrowserRouter>
        <TwoCharts />
      </BrowserRouter>,
    );
    await act(async () => screen.getByText("both").click());
    expect(new URLSearchParams(window.location.search).toString()).toBe("variant=4+queues&knee.pct=p50&scal.hide=efficiency");
    expect(JSON.parse(screen.getByTestId("two").textContent!)).toEqual({ "knee.pct": "p50", "scal.hide": ["efficiency"] });
    await act(async () => window.history.back());
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(new URLSearchParams(window.location.search).toString()).toBe("variant=4+queues&knee.pct=p50");
  });
  it("pushes view changes (Back walks them) and replaces typing", async () => {
    const router = createMemoryRouter([{ path: "/", element: <Probe /> }], { initialEntries: ["/?page=2"] });
    render(<RouterProvider router={router} />);
    const value = () => JSON.parse(screen.getByTestId("v").textContent!);
    expect(value().page).toBe(2);
    await act(async () => screen.getByText("next").click());
    await act(async () => screen.getByText("type").click());
    expect(router.state.location.search).toBe("?page=3&q=x");
    await act(async () => router.navigate(-1));
    // the typed text replaced its entry: Back goes to the view before the push
    expect(router.state.location.search).toBe("?page=2");
    expect(value()).toMatchObject({ page: 2, q: "" });
  });
  it("works without a router, on local state", async () => {
    render(<Probe />);
    await act(async () => screen.getByText("next").click());
    expect(JSON.parse(screen.getByTestId("v").textContent!).page).toBe(2);
  });
});
