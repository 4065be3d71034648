// A document for React to render into, outside a browser: jsdom's window as the globals React DOM and Recharts read.
// Charts are sized here, since jsdom lays nothing out: a ResponsiveContainer gets the width of the export's page
// (times the percentage widths around it) and the height of its ChartFrame.
import { JSDOM } from "jsdom";

/** The width, in CSS pixels, a full-width chart is drawn at (the page's content width on A4 with print margins). */
export const PAGE_WIDTH = 680;
const DEFAULT_HEIGHT = 260;

/** The box a chart container would have: percentage widths and the first pixel height found up its ancestors. */
function boxOf(el: Element): { width: number; height: number } {
  let width = PAGE_WIDTH;
  let height: number | null = null;
  for (let node: Element | null = el; node && node.tagName !== "FIGURE"; node = node.parentElement) {
    const style = (node as HTMLElement).style;
    if (style?.width?.endsWith("%")) width *= Number.parseFloat(style.width) / 100;
    if (height == null && style?.height?.endsWith("px")) height = Number.parseFloat(style.height);
  }
  return { width: Math.round(width), height: height ?? DEFAULT_HEIGHT };
}

/** Make jsdom's window the global one; call before React DOM is imported (it checks for a DOM when it loads). */
export function installDom(): JSDOM {
  const dom = new JSDOM("<!doctype html><html><head></head><body></body></html>", { url: "http://export.invalid/", pretendToBeVisual: true });
  const win = dom.window as unknown as Record<string, unknown>;
  const g = globalThis as unknown as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(win)) {
    if (key in g) continue;
    try {
      g[key] = win[key];
    } catch {
      // a read-only global of Node's: keep Node's
    }
  }
  g.window = win;
  g.document = dom.window.document;
  g.navigator = dom.window.navigator;
  class FixedResizeObserver {
    constructor(private cb: (entries: unknown[], observer: unknown) => void) {}
    observe(target: Element) {
      this.cb([{ target, contentRect: boxOf(target) }], this);
    }
    unobserve() {}
    disconnect() {}
  }
  g.ResizeObserver = win.ResizeObserver = FixedResizeObserver;
  // elements report the same box to code that measures them instead of observing
  const proto = dom.window.HTMLElement.prototype as unknown as Record<string, unknown>;
  Object.defineProperty(proto, "clientWidth", { configurable: true, get() { return boxOf(this as Element).width; } });
  Object.defineProperty(proto, "clientHeight", { configurable: true, get() { return boxOf(this as Element).height; } });
  // no network from the renderer, whatever a component asks for
  g.fetch = win.fetch = () => Promise.reject(new Error("exports render offline: no network"));
  g.IS_REACT_ACT_ENVIRONMENT = true;
  return dom;
}
