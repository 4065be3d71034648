// The same report as Markdown: the rendered page walked block by block (headings, paragraphs, tables, the frozen
// plan as a code block) and each chart an SVG file beside it. Reading the page that was rendered, not the data again,
// keeps the figures, their units and their order the same as in the HTML file.

export interface MarkdownExport {
  /** file name in the zip → content: "report.md" and charts/NN-name.svg */
  files: Record<string, string>;
}

const BLOCKS = new Set(["DL", "SECTION", "DIV", "MAIN", "HEADER", "FOOTER", "ARTICLE", "FIGURE", "DETAILS", "UL", "OL", "TABLE", "PRE", "P", "H1", "H2", "H3", "H4", "H5", "H6"]);
const SKIP = ".recharts-wrapper, .recharts-legend-wrapper, .topbar, .sr-only";

/** Text as Markdown reads it literally: punctuation that would format, link or open HTML is escaped. */
export function escapeText(s: string): string {
  return s.replace(/[\\`*_[\]<>#|~]/g, (c) => `\\${c}`);
}

const squash = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();

/** An element's text as inline Markdown, escaped: separate elements stay separate words, http(s) links stay links. */
export function inline(el: Node): string {
  const walk = (node: Node): string => {
    if (node.nodeType === 3) return escapeText(node.textContent ?? "");
    if (node.nodeType !== 1) return "";
    const child = node as Element;
    if (child.matches(SKIP) || child.getAttribute("aria-hidden") === "true") return "";
    const text = [...child.childNodes].map(walk).join("");
    const href = child.tagName === "A" ? child.getAttribute("href") ?? "" : "";
    if (/^https?:\/\//i.test(href) && squash(text)) return ` [${squash(text)}](<${href.replace(/[<>\s]/g, encodeURIComponent)}>) `;
    return ` ${text} `;
  };
  return squash([...el.childNodes].map(walk).join(""));
}

/** A file-name slug of a chart's title. */
function slug(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 48) || "chart";
}

/** A chart surface as a standalone SVG file (the serializer writes its namespace), on white, in a sans-serif font. */
function standaloneSvg(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute("style", "font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; background: #fff");
  const bg = copy.ownerDocument.createElementNS("http://www.w3.org/2000/svg", "rect");
  bg.setAttribute("width", "100%");
  bg.setAttribute("height", "100%");
  bg.setAttribute("fill", "#fff");
  copy.prepend(bg);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

/** A GFM table of an HTML table: its first row is the header; spans are filled with empty cells. */
function table(el: HTMLTableElement): string {
  const rows = [...el.rows].map((tr) => [...tr.cells].flatMap((cell) => [inline(cell), ...Array<string>(Math.max(0, cell.colSpan - 1)).fill("")]));
  return gfm(rows);
}

/** The name → value pairs of a <dl> as a two-column table. */
function facts(el: Element): string {
  return gfm([["Fact", "Value"], ...[...el.querySelectorAll("dt")].map((dt) => [inline(dt), dt.nextElementSibling ? inline(dt.nextElementSibling) : ""])]);
}

/** Rows of inline Markdown as a GFM table, the first row its header. */
function gfm(rows: string[][]): string {
  if (!rows.length) return "";
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) => `| ${[...r, ...Array<string>(width - r.length).fill("")].join(" | ")} |`;
  return [line(rows[0]), `| ${Array(width).fill("---").join(" | ")} |`, ...rows.slice(1).map(line)].join("\n");
}

/** A fenced code block longer than any run of backticks in `text`. */
function code(text: string, lang = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text.replace(/\n$/, "")}\n${fence}`;
}

/** The report in `root` as Markdown with its charts as files. */
export function toMarkdown(root: HTMLElement): MarkdownExport {
  const files: Record<string, string> = {};
  let charts = 0;

  function chart(fig: HTMLElement): string[] {
    const title = squash(fig.querySelector("figcaption > span")?.textContent) || squash(fig.getAttribute("aria-label"));
    const noteEl = fig.querySelector(".chart-note");
    const note = noteEl ? inline(noteEl) : "";
    const out = [`**${escapeText(title)}**${note ? ` — ${note}` : ""}`];
    const empty = fig.querySelector(".chart-empty");
    if (empty) return [...out, `*${escapeText(squash(empty.textContent))}*`];
    const surfaces = [...fig.querySelectorAll<SVGSVGElement>(".recharts-wrapper > svg.recharts-surface, svg.flame-graph")];
    surfaces.forEach((svg, i) => {
      charts++;
      const name = `charts/${String(charts).padStart(2, "0")}-${slug(title)}${surfaces.length > 1 ? `-${i + 1}` : ""}.svg`;
      files[name] = standaloneSvg(svg);
      out.push(`![${escapeText(title)}](${name})`);
    });
    const legend = [...fig.querySelectorAll(".recharts-legend-item-text")].map(inline).filter(Boolean);
    if (legend.length) out.push(`Series: ${[...new Set(legend)].join(" · ")}`);
    return out;
  }

  function blocks(el: Element): string[] {
    if (el.matches(SKIP)) return [];
    const tag = el.tagName;
    if (/^H[1-6]$/.test(tag)) return [`${"#".repeat(Number(tag[1]))} ${inline(el)}`];
    if (tag === "DL") return [facts(el)];
    if (tag === "TABLE") return [table(el as HTMLTableElement)].filter(Boolean);
    if (tag === "PRE") return [code(el.textContent ?? "", el.closest('[aria-label="Frozen plan"]') ? "json" : "")];
    if (tag === "FIGURE" && el.classList.contains("chart")) return chart(el as HTMLElement);
    if (el.classList.contains("stat-card")) {
      const part = (cls: string) => {
        const found = el.querySelector(cls);
        return found ? inline(found) : "";
      };
      const sub = part(".stat-sub");
      return [`- **${part(".stat-label")}**: ${part(".stat-value")}${sub ? ` (${sub})` : ""}`];
    }
    if (tag === "SUMMARY") return [`**${inline(el)}**`];
    if (tag === "LI") return [`- ${inline(el)}`];
    const isBlock = (c: Element) => BLOCKS.has(c.tagName) || c.classList.contains("stat-card") || c.tagName === "SUMMARY" || c.tagName === "LI";
    const hasBlocks = [...el.children].some(isBlock);
    if (!hasBlocks) {
      const text = inline(el);
      return text ? [text] : [];
    }
    const out: string[] = [];
    let text = "";
    const flush = () => {
      if (squash(text)) out.push(squash(text));
      text = "";
    };
    for (const node of el.childNodes) {
      if (node.nodeType === 3) text += escapeText(node.textContent ?? "");
      else if (node.nodeType === 1) {
        const child = node as Element;
        if (isBlock(child)) {
          flush();
          const inner = blocks(child);
          // a run of list items (stat cards) stays one list
          out.push(...(inner.every((b) => b.startsWith("- ")) && inner.length ? [inner.join("\n")] : inner));
        } else text += ` ${inline(child)} `;
      }
    }
    flush();
    return out;
  }

  files["report.md"] = `${blocks(root).join("\n\n").replace(/\n{3,}/g, "\n\n")}\n`;
  return { files };
}
