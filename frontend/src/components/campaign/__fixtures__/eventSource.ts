// A scriptable stand-in for the browser's EventSource, for tests: open it, drop it, send it events.

/** A fake EventSource; every instance is kept in `FakeEventSource.all`, newest last. */
export class FakeEventSource {
  static all: FakeEventSource[] = [];
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = FakeEventSource.CONNECTING;
  closed = false;
  onopen: ((e: Event) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  private listeners = new Map<string, ((e: MessageEvent) => void)[]>();

  constructor(public url: string) {
    FakeEventSource.all.push(this);
  }

  /** The newest instance. */
  static get last(): FakeEventSource {
    return FakeEventSource.all[FakeEventSource.all.length - 1];
  }

  addEventListener(name: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
  }

  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }

  /** The connection opens. */
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.(new Event("open"));
  }

  /** The connection drops: the browser retries by itself, or (`gaveUp`) it stays closed. */
  drop(gaveUp = false) {
    this.readyState = gaveUp ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.(new Event("error"));
  }

  /** A named event with a JSON payload. */
  emit(name: string, data: unknown) {
    for (const fn of this.listeners.get(name) ?? []) fn(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
}

/** A factory for openLiveStream's `create` option. */
export const createFake = (url: string) => new FakeEventSource(url) as unknown as EventSource;

/** The events of a captured server-sent event stream (its text as received), in order: name and parsed data. */
export function parseSse(text: string): { event: string; data: unknown }[] {
  return text
    .split(/\n\n+/)
    .map((block) => {
      const field = (name: string) => block.split("\n").find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
      const event = field("event");
      const data = field("data");
      return event && data != null ? { event, data: JSON.parse(data) as unknown } : null;
    })
    .filter((e): e is { event: string; data: unknown } => e !== null);
}
