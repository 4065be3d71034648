import type { ReactNode } from "react";
import { fmtDateTime } from "../src/format";
import { safeUrl, type ExportDocument } from "./document";

/** The file's top and bottom lines: what made it, when, and the way back to the live report. */
export default function Frame({ doc, children }: { doc: ExportDocument; children: ReactNode }) {
  const link = safeUrl(doc.link);
  const made = (
    <p className="muted small export-made">
      Exported from Kneeboard {doc.version} on {fmtDateTime(doc.generated_at)}
      {link && (
        <>
          {" · "}
          <a href={link} data-testid="link-back">
            open the live {doc.kind === "comparison" ? "comparison" : "report"}
          </a>
        </>
      )}
    </p>
  );
  return (
    <div className="app export-app">
      <header className="topbar">
        <span className="brand">Kneeboard</span>
        <span className="muted">{doc.kind === "comparison" ? "comparison" : "report"}</span>
      </header>
      <main className="content">
        {made}
        {children}
        <footer className="export-footer">{made}</footer>
      </main>
    </div>
  );
}
