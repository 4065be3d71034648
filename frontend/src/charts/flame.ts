// A flame graph's layout from folded stacks ("root;…;leaf count" a line): pure, no DOM. FlameGraph.tsx draws it.

/** One stack: its frames root first, and its weight (samples; or, in a differential, what sets the width) with A's
 * and B's values when it is a differential's stack. */
export interface FlameStack {
  frames: string[];
  value: number;
  a?: number;
  b?: number;
}

/** A frame of the graph: a function reached by one path. `x` and `width` are fractions of the shown root's width;
 * `depth` 0 is the root row. `value` sums the stacks beneath it; `self` those that end here; `a`, `b` likewise. */
export interface FlameFrame {
  name: string;
  path: string;
  depth: number;
  x: number;
  width: number;
  value: number;
  self: number;
  a: number;
  b: number;
  /** a frame below the zoomed one (drawn whole width, faded: click it to zoom out) */
  ancestor: boolean;
}

export interface FlameLayout {
  frames: FlameFrame[];
  /** the whole profile's value (every stack), and the shown root's */
  total: number;
  shown: number;
  /** rows drawn (the deepest frame's depth + 1) */
  rows: number;
  /** frames left out for being narrower than `minWidth` */
  hidden: number;
}

interface Node {
  name: string;
  path: string;
  value: number;
  self: number;
  a: number;
  b: number;
  children: Map<string, Node>;
}

const SEP = ";";

/** Folded text → stacks; a line without a trailing count is skipped (the backend's parse_folded does the same). */
export function parseFolded(text: string): FlameStack[] {
  const out: FlameStack[] = [];
  for (const line of text.split("\n")) {
    const cut = line.lastIndexOf(" ");
    const count = line.slice(cut + 1);
    if (cut <= 0 || !/^\d+$/.test(count)) continue;
    out.push({ frames: line.slice(0, cut).split(SEP), value: Number(count) });
  }
  return out;
}

function node(name: string, path: string): Node {
  return { name, path, value: 0, self: 0, a: 0, b: 0, children: new Map() };
}

/** The stacks merged into a tree under an unnamed root: a frame per distinct path. */
function tree(stacks: FlameStack[]): Node {
  const root = node("", "");
  for (const s of stacks) {
    if (!(s.value > 0)) continue;
    let at = root;
    const add = (n: Node) => {
      n.value += s.value;
      n.a += s.a ?? 0;
      n.b += s.b ?? 0;
    };
    add(root);
    for (const name of s.frames) {
      let child = at.children.get(name);
      if (!child) at.children.set(name, (child = node(name, at.path ? at.path + SEP + name : name)));
      add(child);
      at = child;
    }
    at.self += s.value;
  }
  return root;
}

/**
 * Lay the stacks out as a flame graph: each frame's width its share of the shown root's value, its children side by
 * side in name order (the same order in A and B), a row per depth. `focus`: the path of a frame to zoom into (it then
 * spans the width; the frames below it are marked `ancestor`); an unknown path shows the whole graph. Frames narrower
 * than `minWidth` (a fraction) are left out with everything above them, and counted in `hidden`; beyond `maxFrames`
 * only the widest are kept (a frame is never narrower than one above it, so none is left without the one below).
 */
export function layoutFlame(stacks: FlameStack[], { focus = "", minWidth = 0, maxFrames = Infinity }: { focus?: string; minWidth?: number; maxFrames?: number } = {}): FlameLayout {
  const root = tree(stacks);
  const ancestors: Node[] = [];
  let top = root;
  for (const name of focus ? focus.split(SEP) : []) {
    const next = top.children.get(name);
    if (!next) {
      ancestors.length = 0;
      top = root;
      break;
    }
    ancestors.push(top);
    top = next;
  }
  const out: FlameFrame[] = [];
  let hidden = 0;
  const emit = (n: Node, depth: number, x: number, width: number, ancestor: boolean) =>
    out.push({ name: n.name, path: n.path, depth, x, width, value: n.value, self: n.self, a: n.a, b: n.b, ancestor });
  // the frames below the focus, whole width (the unnamed root is not drawn)
  ancestors.slice(1).forEach((n, i) => emit(n, i, 0, 1, true));
  const base = Math.max(0, ancestors.length - 1);
  const walk = (n: Node, depth: number, x: number) => {
    let at = x;
    for (const child of [...n.children.values()].sort((p, q) => (p.name < q.name ? -1 : p.name > q.name ? 1 : 0))) {
      const width = top.value ? child.value / top.value : 0;
      if (width < minWidth) hidden++;
      else {
        emit(child, depth, at, width, false);
        walk(child, depth + 1, at);
      }
      at += width;
    }
  };
  if (top === root) walk(root, 0, 0);
  else {
    emit(top, base, 0, 1, false);
    walk(top, base + 1, 0);
  }
  const frames = out.length > maxFrames ? widest(out, maxFrames) : out;
  hidden += out.length - frames.length;
  return { frames, total: root.value, shown: top.value, rows: frames.reduce((m, f) => Math.max(m, f.depth + 1), 0), hidden };
}

/** The `n` widest frames, the lower first among equals (a frame's parent before it), in their drawing order. */
function widest(frames: FlameFrame[], n: number): FlameFrame[] {
  const kept = new Set(
    frames
      .map((f, i) => ({ f, i }))
      .sort((p, q) => q.f.width - p.f.width || p.f.depth - q.f.depth || p.i - q.i)
      .slice(0, n)
      .map(({ i }) => i),
  );
  return frames.filter((_, i) => kept.has(i));
}

/** A differential's stack pairs (per 1,000 requests in A and B) as stacks whose width is the larger of the two, so
 * that a path that vanished in B still shows (in the shrink colour) beside the one that replaced it. */
export function diffStacks(pairs: { stack: string; per_1k_a: number; per_1k_b: number }[]): FlameStack[] {
  return pairs.map((p) => ({ frames: p.stack.split(SEP), value: Math.max(p.per_1k_a, p.per_1k_b), a: p.per_1k_a, b: p.per_1k_b }));
}

/** A small stable hash of a name (FNV-1a), so a function keeps its colour in every graph and every file. */
function hash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) / 0xffffffff;
}

/** A frame's fill in a profile: the warm palette, kernel frames (`_[k]`) orange, unnamed objects (`[nginx]`) grey. */
export function frameColour(name: string): string {
  const v = hash(name);
  if (name.endsWith("_[k]")) return `rgb(${230 + Math.round(20 * v)},${140 + Math.round(50 * v)},${40 + Math.round(30 * v)})`;
  if (name.startsWith("[") && name.endsWith("]")) return `rgb(${170 + Math.round(30 * v)},${170 + Math.round(30 * v)},${170 + Math.round(30 * v)})`;
  return `rgb(${205 + Math.round(50 * v)},${Math.round(80 + 150 * v)},${Math.round(55 * (1 - v))})`;
}

/** A differential frame's fill: red as it grew from A to B, blue as it shrank, white unchanged; `scale` is the largest
 * change of any frame (the most saturated colour). */
export function diffColour(change: number, scale: number): string {
  const r = scale > 0 ? Math.min(1, Math.abs(change) / scale) : 0;
  const v = Math.round(220 * r);
  return change >= 0 ? `rgb(255,${255 - v},${255 - v})` : `rgb(${255 - v},${255 - v},255)`;
}

/** The name cut to fit `chars` characters ("…" at the end), or "" when not even a few fit. */
export function fitLabel(name: string, chars: number): string {
  if (chars < 3) return "";
  return name.length <= chars ? name : name.slice(0, chars - 1) + "…";
}
