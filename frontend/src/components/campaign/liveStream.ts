// A server-sent event stream that comes back by itself, with a polling fallback while it cannot.
//
// The browser's EventSource retries on its own when the server closes the stream (after the `retry:`
// hint, sending Last-Event-ID); when it gives up (readyState CLOSED: an HTTP error, a wrong content type)
// it is created again here, with backoff. While the stream has been down for `fallbackAfterMs`, `onPoll`
// runs every `pollMs` until the stream is open again.

/** Where the stream stands: opening for the first time, open, down and retrying, or down long enough to poll. */
export type StreamState = "connecting" | "live" | "reconnecting" | "polling";

export interface LiveStreamOptions {
  /** Handlers of the named events. */
  on: Record<string, (e: MessageEvent) => void>;
  /** Each change of state. */
  onState: (state: StreamState) => void;
  /** The stream is open again after a drop: refetch what it may have missed. */
  onReconnect: () => void;
  /** Called every `pollMs` while the stream has been down for `fallbackAfterMs`. */
  onPoll: () => void;
  fallbackAfterMs?: number;
  pollMs?: number;
  /** Delay before re-creating a closed EventSource, by consecutive failure (0, 1, …). */
  backoff?: (failure: number) => number;
  /** Makes the EventSource (tests pass a fake). */
  create?: (url: string) => EventSource;
}

/** EventSource.CLOSED: the browser will not retry by itself. */
const CLOSED = 2;

/** 1 s, 2 s, 4 s, 8 s, then 15 s between attempts to re-create a closed stream. */
export function backoffMs(failure: number): number {
  return Math.min(15_000, 1000 * 2 ** failure);
}

/** Open `url` as a self-reconnecting event stream; the returned `close` ends it for good. */
export function openLiveStream(url: string, opts: LiveStreamOptions): { close: () => void } {
  const { fallbackAfterMs = 10_000, pollMs = 2000, backoff = backoffMs, create = (u) => new EventSource(u) } = opts;
  let es: EventSource | null = null;
  let closed = false;
  let dropped = false;
  let failures = 0;
  let state: StreamState | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let fallbackTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setInterval> | undefined;

  const setState = (next: StreamState) => {
    if (next !== state) opts.onState((state = next));
  };
  const stopFallback = () => {
    clearTimeout(fallbackTimer);
    clearInterval(pollTimer);
    fallbackTimer = pollTimer = undefined;
  };
  // counts from the first moment the stream is down; an open stream stops it
  const armFallback = () => {
    if (fallbackTimer !== undefined || pollTimer !== undefined) return;
    fallbackTimer = setTimeout(() => {
      fallbackTimer = undefined;
      setState("polling");
      opts.onPoll();
      pollTimer = setInterval(opts.onPoll, pollMs);
    }, fallbackAfterMs);
  };

  const connect = () => {
    if (closed) return;
    const source = (es = create(url));
    source.onopen = () => {
      failures = 0;
      stopFallback();
      setState("live");
      if (dropped) {
        dropped = false;
        opts.onReconnect();
      }
    };
    source.onerror = () => {
      if (closed || source !== es) return;
      dropped = true;
      if (state !== "polling") setState("reconnecting");
      armFallback();
      if (source.readyState === CLOSED) {
        source.close();
        retryTimer = setTimeout(connect, backoff(failures++));
      }
    };
    for (const [name, handler] of Object.entries(opts.on)) source.addEventListener(name, handler as EventListener);
  };

  setState("connecting");
  armFallback();
  connect();
  return {
    close: () => {
      closed = true;
      clearTimeout(retryTimer);
      stopFallback();
      es?.close();
    },
  };
}
