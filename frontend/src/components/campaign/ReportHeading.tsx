import type { ReactNode } from "react";
import type { CampaignOut } from "../../api/types";
import { fmtDateTime } from "../../format";
import type { ToolInfo } from "../../tools/catalog";
import GrafanaLink from "../common/GrafanaLink";
import StatusBadge from "../common/StatusBadge";

/** A read-only report's title and subline: name, status, tool, target, when it ran; `children` join the subline. */
export default function ReportHeading({ campaign: c, tool, children }: { campaign: CampaignOut; tool: ToolInfo | undefined; children?: ReactNode }) {
  const target = c.target as { name?: string; host?: string; port?: number };
  return (
    <div className="page-head">
      <div>
        <h1>{c.name}</h1>
        <div className="subline">
          <StatusBadge status={c.status} partial={c.partial} />
          <span title={c.tool}>{tool?.title ?? c.tool}</span>
          <span>→ {target?.name ?? "target"}</span>
          <span className="muted">
            {fmtDateTime(c.started_at ?? c.created_at)}
            {c.ended_at ? ` – ${fmtDateTime(c.ended_at)}` : ""}
          </span>
          {children}
          <GrafanaLink href={c.grafana_url} />
        </div>
      </div>
    </div>
  );
}
