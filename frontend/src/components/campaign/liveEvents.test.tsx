// Issue 39: a running point's events as markers on the live chart, from a captured live stream (tests/integration/
// test_live_point_events.py with KB_CAPTURE_LIVE_STREAM: kbhttp at 200 req/s through the lab's HAProxy, b2 disabled 1 s
// into the point and enabled again at 2 s).
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { CampaignOut, Point, PointEventMessage } from "../../api/types";
import { along, fixedSizeCharts, markers } from "../../charts/chartTesting";
import { tool } from "../../tools/__fixtures__";
import { FakeEventSource, parseSse } from "./__fixtures__/eventSource";
import captured from "./__fixtures__/point-events.sse?raw";
import LiveSection from "./LiveSection";
import { addPointEvent, useCampaignEvents } from "./useCampaignEvents";

const STREAM = parseSse(captured);
const TOLD = STREAM.filter((m) => m.event === "point_event").map((m) => m.data as PointEventMessage);
const COMPLETED = STREAM.findIndex((m) => m.event === "point" && (m.data as { status: string }).status === "completed");
const POINT_ID = TOLD[0].point_id;
const SAMPLES = STREAM.filter((m) => m.event === "sample").map((m) => m.data as { point_id: number; t: number; values: Record<string, number> });
const FIRST_SAMPLE = SAMPLES[0].t;

const running = (id: number) =>
  ({ id: 1, name: "live events", tool: "kbhttp", status: "running", attempt: 1, plan: {}, target: {},
     progress: { total: 2, done: 0, running_point_id: id }, summary: { points_completed: 0 } }) as unknown as CampaignOut; // prettier-ignore
const point = (id: number, status = "running") =>
  ({ id, seq: id - 1, phase: "stability", concurrency: 4, offered_rate: 200, status, extra: {} }) as unknown as Point;

let qc: QueryClient;
const withQuery = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;

/** The campaign page's live view as CampaignPage wires it: the stream's samples and events into LiveSection. */
function Live({ campaign, points }: { campaign: CampaignOut; points: Point[] }) {
  const { samples, stream, events } = useCampaignEvents(1, true);
  return <LiveSection campaign={campaign} tool={tool("kbhttp")} points={points} live={samples} stream={stream} events={events} />;
}

/** Each marker line's dash pattern (null: solid). */
const dashes = (el: HTMLElement) => [...el.querySelectorAll(".recharts-reference-line line")].map((l) => l.getAttribute("stroke-dasharray"));

/** Send the captured stream's messages [from, to) to the open fake EventSource. */
const replay = (from: number, to: number) => act(() => STREAM.slice(from, to).forEach((m) => FakeEventSource.last.emit(m.event, m.data)));

beforeAll(fixedSizeCharts);
beforeEach(() => {
  qc = new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } });
  FakeEventSource.all = [];
  vi.stubGlobal("EventSource", FakeEventSource);
});
afterEach(() => vi.unstubAllGlobals());

describe("a running point's events on the live stream", () => {
  it("are kept by point, the done state replacing the fired one", () => {
    expect(TOLD.map((e) => [e.action, e.done != null])).toEqual([
      ["lab.haproxy_disable", false], ["lab.haproxy_disable", true], ["lab.haproxy_enable", false], ["lab.haproxy_enable", true],
    ]); // prettier-ignore
    const { result } = renderHook(() => useCampaignEvents(1, true), { wrapper: withQuery });
    act(() => FakeEventSource.last.open());
    const first = STREAM.findIndex((m) => m.event === "point_event");
    replay(0, first + 1);
    const { point_id: _, ...fired } = TOLD[0];
    expect(result.current.events[POINT_ID]).toEqual([fired]);
    replay(first + 1, COMPLETED);
    const kept = result.current.events[POINT_ID];
    expect(kept.map((e) => [e.action, e.t, e.done])).toEqual([TOLD[1], TOLD[3]].map((e) => [e.action, e.t, e.done]));
    expect(kept.every((e) => !("point_id" in e))).toBe(true);
  });

  it("draw a marker per event on the live chart at its time on the chart's clock, gone when the next point runs", async () => {
    const view = render(<Live campaign={running(POINT_ID)} points={[point(POINT_ID)]} />, { wrapper: withQuery });
    act(() => FakeEventSource.last.open());
    replay(0, COMPLETED);
    const chart = () => view.getByRole("figure", { name: /^Running point/ });
    await waitFor(() => expect(markers(chart()).map((m) => m.label)).toEqual(["haproxy_disable b2", "haproxy_enable b2"]));
    const [disabled, enabled] = markers(chart());
    // the chart's 0 s is its first sample (as on the report): the events at their epoch seconds from it
    expect(along(chart(), disabled.x)).toBeCloseTo(TOLD[1].t - FIRST_SAMPLE, 1);
    expect(along(chart(), enabled.x)).toBeCloseTo(TOLD[3].t - FIRST_SAMPLE, 1);
    expect(dashes(chart())).toEqual([null, null]); // both acted: solid lines
    const timeline = view.getByRole("figure", { name: /^Campaign timeline/ }); // the point has no stored events yet: the told ones
    expect(markers(timeline).map((m) => m.label)).toEqual(["haproxy_disable b2", "haproxy_enable b2"]);
    // the next point runs: its own samples (the captured ones, 10 s on), and no marker of the point before
    view.rerender(<Live campaign={running(POINT_ID + 1)} points={[point(POINT_ID, "completed"), point(POINT_ID + 1)]} />);
    const next = SAMPLES.map((s) => ({ ...s, point_id: POINT_ID + 1, t: s.t + 10 }));
    act(() => next.forEach((s) => FakeEventSource.last.emit("sample", s)));
    await waitFor(() => expect(chart().querySelectorAll(".recharts-line-dot").length).toBe(next.length));
    expect(markers(chart())).toEqual([]);
  });

  it("draw a failed action dashed", async () => {
    const failed = { ...TOLD[3], error: "HAProxy answered: No such server." };
    const events = addPointEvent(addPointEvent({}, TOLD[1]), failed);
    const view = render(
      <LiveSection campaign={running(POINT_ID)} tool={tool("kbhttp")} points={[point(POINT_ID)]} live={{ [POINT_ID]: SAMPLES }} stream="live" events={events} />,
      { wrapper: withQuery },
    );
    const chart = view.getByRole("figure", { name: /^Running point/ });
    expect(markers(chart).map((m) => m.label)).toEqual(["haproxy_disable b2", "haproxy_enable b2 (failed)"]);
    expect(dashes(chart)).toEqual([null, "4 3"]);
  });
});
