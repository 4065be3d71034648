// The rendered report made into a static page: no controls (nothing to run them), every collapsible open, links
// absolute (or none), and the charts' colours as values, so an SVG reads the same outside the page's style sheet.

/** The light theme's custom properties (`--name: value` in the style sheet's first `:root` block). */
export function lightVariables(css: string): Map<string, string> {
  const block = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? "";
  const vars = new Map<string, string>();
  for (const m of block.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) vars.set(m[1], m[2].trim());
  return vars;
}

/** `value` with every var(--name) (or var(--name, fallback)) replaced by the variable's value. */
export function resolveVars(value: string, vars: Map<string, string>, depth = 0): string {
  if (depth > 5 || !value.includes("var(")) return value;
  const out = value.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^)]*))?\)/g, (_, name: string, fallback?: string) => vars.get(name) ?? fallback ?? "currentColor");
  return resolveVars(out, vars, depth + 1);
}

const CONTROLS = "input, select, textarea, label.chart-option, .recharts-tooltip-wrapper";

/** Make `root` static in place (see above); relative links go to `site`. */
export function makeStatic(root: HTMLElement, { site, vars }: { site: string | undefined; vars: Map<string, string> }): void {
  root.querySelectorAll(CONTROLS).forEach((el) => el.remove());
  // a column header's sort button keeps its label (not its arrow); any other button goes
  root.querySelectorAll('th button [aria-hidden="true"]').forEach((el) => el.remove());
  root.querySelectorAll("button").forEach((el) => (el.closest("th") ? el.replaceWith(...el.childNodes) : el.remove()));
  root.querySelectorAll("details").forEach((el) => el.setAttribute("open", ""));
  root.querySelectorAll("a[href]").forEach((a) => {
    const href = a.getAttribute("href") ?? "";
    if (/^https?:\/\//i.test(href)) return;
    if (site && href.startsWith("/") && !href.startsWith("//")) a.setAttribute("href", site.replace(/\/$/, "") + href);
    else a.removeAttribute("href");
  });
  root.querySelectorAll("[tabindex]").forEach((el) => el.removeAttribute("tabindex"));
  root.querySelectorAll("svg, svg *").forEach((el) => {
    for (const attr of [...el.attributes]) if (attr.value.includes("var(")) el.setAttribute(attr.name, resolveVars(attr.value, vars));
  });
}
