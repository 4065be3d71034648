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
