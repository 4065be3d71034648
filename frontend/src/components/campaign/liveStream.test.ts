import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FakeEventSource, createFake } from "./__fixtures__/eventSource";
import { backoffMs, openLiveStream, type StreamState } from "./liveStream";

function open() {
  const states: StreamState[] = [];
  const handlers = { onState: vi.fn((s: StreamState) => states.push(s)), onReconnect: vi.fn(), onPoll: vi.fn(), progress: vi.fn() };
  const live = openLiveStream("/events", {
    create: createFake,
    onState: handlers.onState,
    onReconnect: handlers.onReconnect,
    onPoll: handlers.onPoll,
    on: { progress: handlers.progress },
  });
  return { live, states, ...handlers };
}

beforeEach(() => {
  FakeEventSource.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe("live stream", () => {
  it("passes named events on and says when it is live", () => {
    const s = open();
    FakeEventSource.last.open();
    FakeEventSource.last.emit("progress", { status: "running" });
    expect(s.states).toEqual(["connecting", "live"]);
    expect(s.progress.mock.calls[0][0].data).toBe('{"status":"running"}');
    expect(s.onReconnect).not.toHaveBeenCalled();
  });

  it("says reconnecting while the browser retries, and refetches once it is back", () => {
    const s = open();
    FakeEventSource.last.open();
    FakeEventSource.last.drop();
    expect(s.states.at(-1)).toBe("reconnecting");
    FakeEventSource.last.open();
    expect(s.states.at(-1)).toBe("live");
    expect(s.onReconnect).toHaveBeenCalledTimes(1);
    expect(FakeEventSource.all).toHaveLength(1); // the browser's own retry: no new EventSource
  });

  it("re-creates a stream the browser gave up on, with growing delays", () => {
    open();
    FakeEventSource.last.drop(true);
    expect(FakeEventSource.all[0].closed).toBe(true);
    vi.advanceTimersByTime(backoffMs(0) - 1);
    expect(FakeEventSource.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.all).toHaveLength(2);
    FakeEventSource.last.drop(true);
    vi.advanceTimersByTime(backoffMs(1));
    expect(FakeEventSource.all).toHaveLength(3);
    expect(backoffMs(1)).toBeGreaterThan(backoffMs(0));
    expect(backoffMs(20)).toBe(15_000);
  });

  it("polls every 2 s after 10 s down, and stops when the stream is back", () => {
    const s = open();
    FakeEventSource.last.open();
    FakeEventSource.last.drop();
    vi.advanceTimersByTime(9_999);
    expect(s.onPoll).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(s.states.at(-1)).toBe("polling");
    expect(s.onPoll).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(4_000);
    expect(s.onPoll).toHaveBeenCalledTimes(3);
    FakeEventSource.last.drop(); // still down: still polling
    expect(s.states.at(-1)).toBe("polling");
    FakeEventSource.last.open();
    vi.advanceTimersByTime(10_000);
    expect(s.onPoll).toHaveBeenCalledTimes(3);
    expect(s.states.at(-1)).toBe("live");
    expect(s.onReconnect).toHaveBeenCalledTimes(1);
  });

  it("falls back to polling when the first connection never opens", () => {
    const s = open();
    vi.advanceTimersByTime(10_000);
    expect(s.states).toEqual(["connecting", "polling"]);
  });

  it("stops for good when closed", () => {
    const s = open();
    FakeEventSource.last.drop(true);
    s.live.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.all).toHaveLength(1);
    expect(s.onPoll).not.toHaveBeenCalled();
  });
});
