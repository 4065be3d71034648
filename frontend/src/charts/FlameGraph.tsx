import { useMemo, useState, type KeyboardEvent } from "react";
import { diffColour, fitLabel, frameColour, layoutFlame, type FlameFrame, type FlameStack } from "./flame";

const WIDTH = 900; // the drawing's own units: it scales to its box (680 px in an export)
const ROW = 17;
const FONT = 11;
const CHAR = FONT * 0.6; // a character's width in the monospace-ish estimate labels are cut by
const MIN_FRAME = 0.5 / WIDTH; // narrower than half a unit: not drawn
const MAX_FRAMES = 2500; // the widest drawn, at most: bounds the page and an exported file (~0.26 kB a frame there)

/**
 * A flame graph drawn as SVG from folded stacks (layout: flame.ts): root at the bottom, a frame's width its share of
 * the samples. `describe` gives a frame's tooltip (its samples and share, said by the caller who knows the units).
 * `diff`: a differential graph, frames coloured by the change from A to B. `interactive`: a click (or Enter) on a
 * frame zooms into it, on a faded frame below zooms back out; without it the drawing is static (a share page, a file).
 */
export default function FlameGraph({
  stacks,
  title,
  describe,
  diff = false,
  interactive = false,
}: {
  stacks: FlameStack[];
  title: string;
  describe: (frame: FlameFrame, total: number) => string;
  diff?: boolean;
  interactive?: boolean;
}) {
  const [focus, setFocus] = useState("");
  const layout = useMemo(() => layoutFlame(stacks, { focus, minWidth: MIN_FRAME, maxFrames: MAX_FRAMES }), [stacks, focus]);
  const scale = useMemo(() => (diff ? Math.max(0, ...layout.frames.map((f) => Math.abs(f.b - f.a))) : 0), [diff, layout]);
  const height = Math.max(1, layout.rows) * ROW;
  // a frame zooms in; the zoomed frame zooms out one row; a faded one below zooms out to it
  const zoom = (f: FlameFrame) => setFocus(f.path === focus ? f.path.split(";").slice(0, -1).join(";") : f.path);
  const keyed = (f: FlameFrame) => (e: KeyboardEvent) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      zoom(f);
    }
  };
  return (
    <figure className="chart flame" aria-label={title}>
      <figcaption>
        <span>{title}</span>
        {interactive && focus && (
          <button type="button" className="btn small" onClick={() => setFocus("")}>
            Reset zoom
          </button>
        )}
      </figcaption>
      <svg
        className="flame-graph"
        role={interactive ? "group" : "img"}
        aria-label={title}
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
        fontFamily="sans-serif"
        fontSize={FONT}
        data-frames={layout.frames.length}
      >
        {layout.frames.map((f) => {
          const x = f.x * WIDTH;
          const w = f.width * WIDTH;
          const y = height - (f.depth + 1) * ROW;
          const label = fitLabel(f.name, Math.floor((w - 4) / CHAR));
          const fill = diff ? diffColour(f.b - f.a, scale) : frameColour(f.name);
          return (
            <g
              key={f.path}
              className="flame-frame"
              data-path={interactive ? f.path : undefined}
              opacity={f.ancestor ? 0.5 : undefined}
              {...(interactive ? { role: "button", tabIndex: 0, "aria-label": describe(f, layout.total), onClick: () => zoom(f), onKeyDown: keyed(f), cursor: "pointer" } : {})}
            >
              <title>{describe(f, layout.total)}</title>
              <rect x={x} y={y} width={Math.max(0.5, w - 0.5)} height={ROW - 1} fill={fill} rx={1} />
              {label && (
                <text x={x + 2} y={y + ROW - 5} fill="#222">
                  {label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      {layout.hidden > 0 && <p className="chart-note">{layout.hidden.toLocaleString()} frames too narrow to draw are left out (their samples count in the frames below them).</p>}
    </figure>
  );
}
