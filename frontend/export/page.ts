// The exported HTML file: one document, its style inline, a Content-Security-Policy that allows nothing else to load.
import type { ExportDocument } from "./document";

/** No script, no request of any kind; inline style only (the charts' style attributes need 'unsafe-inline'). */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** The file's title. */
export function titleOf(doc: ExportDocument): string {
  if (doc.kind === "comparison") return `Comparison: ${(doc.comparison?.campaigns ?? []).map((c) => c.name).join(" vs ")} — Kneeboard`;
  return `${doc.campaign?.name ?? "Campaign"} #${doc.campaign?.id ?? ""} — Kneeboard`;
}

/** A whole HTML document around `body` (already static), every text escaped by the serializer. */
export function htmlPage(doc: ExportDocument, body: HTMLElement, css: string): string {
  const page = document.implementation.createHTMLDocument(titleOf(doc));
  const head = page.head;
  const meta = (attrs: Record<string, string>) => {
    const el = page.createElement("meta");
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    head.prepend(el);
  };
  meta({ name: "generator", content: `Kneeboard ${doc.version}` });
  meta({ name: "viewport", content: "width=device-width, initial-scale=1" });
  meta({ "http-equiv": "Content-Security-Policy", content: CSP });
  meta({ charset: "utf-8" });
  const style = page.createElement("style");
  style.textContent = css;
  head.append(style);
  page.documentElement.setAttribute("lang", "en");
  page.documentElement.setAttribute("data-theme", "light");
  for (const node of [...body.childNodes]) page.body.append(page.importNode(node, true));
  return `<!doctype html>\n${page.documentElement.outerHTML}\n`;
}
