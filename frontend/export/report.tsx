// Render a report document with the app's own components, in jsdom, and make it static.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import type { Comparison } from "../src/api/compare";
import SharedComparison from "../src/components/share/SharedComparison";
import appCss from "../src/styles.css?raw";
import CampaignExport from "./CampaignExport";
import { makeStatic, lightVariables } from "./clean";
import { seededClient, type ExportDocument } from "./document";
import exportCss from "./export.css?raw";
import Frame from "./Frame";
import { toMarkdown } from "./markdown";
import { htmlPage } from "./page";

/** Check the document's shape enough to render it (the backend builds it; this names what is missing). */
function check(doc: ExportDocument): void {
  if (doc.kind === "campaign" && (!doc.campaign || !Array.isArray(doc.points))) throw new Error("a campaign document needs campaign and points");
  if (doc.kind === "comparison" && !doc.comparison) throw new Error("a comparison document needs comparison");
  if (doc.kind !== "campaign" && doc.kind !== "comparison") throw new Error(`unknown kind ${String(doc.kind)}`);
}

/** The report drawn into a detached container, charts included, then made static. */
async function draw(doc: ExportDocument): Promise<HTMLElement> {
  check(doc);
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  const report =
    doc.kind === "comparison" ? (
      <SharedComparison report={{ comparison: doc.comparison as Comparison, tools: doc.tools }} />
    ) : (
      <CampaignExport doc={doc as ExportDocument & Required<Pick<ExportDocument, "campaign" | "points">>} />
    );
  await act(async () => {
    root.render(
      <QueryClientProvider client={seededClient(doc)}>
        <MemoryRouter>
          <Frame doc={doc}>{report}</Frame>
        </MemoryRouter>
      </QueryClientProvider>,
    );
  });
  // Recharts 3 lays out through its store after the first commit: let those updates land
  for (let i = 0; i < 3; i++) await act(async () => new Promise((r) => setTimeout(r, 0)));
  makeStatic(container, { site: doc.site, vars: lightVariables(appCss) });
  return container;
}

/** The document as one self-contained HTML file. */
export async function renderHtml(doc: ExportDocument): Promise<string> {
  return htmlPage(doc, await draw(doc), `${appCss}\n${exportCss}`);
}

/** The document as Markdown with its charts as SVG files (name → content). */
export async function renderMarkdown(doc: ExportDocument): Promise<Record<string, string>> {
  return toMarkdown(await draw(doc)).files;
}
