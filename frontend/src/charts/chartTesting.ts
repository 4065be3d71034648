// Rendering Recharts in jsdom for tests: a fixed size, and the tick labels drawn.

/** jsdom has no layout: ResponsiveContainer is told it is 600 × 240. */
export function fixedSizeCharts() {
  class FixedResizeObserver {
    constructor(private cb: ResizeObserverCallback) {}
    observe(target: Element) {
      this.cb([{ target, contentRect: { width: 600, height: 240 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
    }
    unobserve() {}
    disconnect() {}
  }
  globalThis.ResizeObserver = FixedResizeObserver as unknown as typeof ResizeObserver;
}

/** The tick labels of each y axis drawn in `container`. */
export function yTicks(container: HTMLElement): string[][] {
  return [...container.querySelectorAll(".recharts-yAxis-tick-labels")].map((axis) =>
    [...axis.querySelectorAll(".recharts-cartesian-axis-tick-value")].map((t) => t.textContent ?? ""),
  );
}

/** Each event marker's label and x position on the chart surface (Recharts draws the labels in a layer of their own). */
export function markers(el: HTMLElement): { label: string | null; x: number }[] {
  const labels = [...el.querySelectorAll(".event-marker-label")].map((t) => t.textContent);
  return [...el.querySelectorAll(".recharts-reference-line line")].map((line, i) => ({ label: labels[i], x: Number(line.getAttribute("x1")) }));
}

/** The seconds at `x` on a chart over seconds, read from its x axis' tick labels ("3s", SECONDS_AXIS). */
export function along(el: HTMLElement, x: number): number {
  const labels = [...el.querySelectorAll(".recharts-cartesian-axis-tick-value")].filter((t) => /^[\d.]+s$/.test(t.textContent ?? ""));
  const ticks = labels.map((t) => Number(t.getAttribute("x")));
  const values = labels.map((t) => parseFloat(t.textContent ?? ""));
  const [x0, x1, v0, v1] = [ticks[0], ticks[ticks.length - 1], values[0], values[values.length - 1]];
  return v0 + ((x - x0) / (x1 - x0)) * (v1 - v0);
}
