import { useState } from "react";
import type { SharedReport } from "../../api/shares";
import type { CampaignOut, Point } from "../../api/types";
import { variantLabels } from "../../charts/pointData";
import { findTool } from "../../tools/catalog";
import FactsTable from "../campaign/FactsTable";
import HostSharingNotice from "../campaign/HostSharingNotice";
import ReportBody from "../campaign/ReportBody";
import ReportHeading from "../campaign/ReportHeading";

/** One campaign's report as a share link shows it: the report page's charts and tables, read-only, with the pinned analysis. */
export default function SharedCampaign({ report }: { report: SharedReport & { campaign: CampaignOut; points: Point[] } }) {
  const c = report.campaign;
  const tool = findTool(report.tools, c.tool);
  const labels = variantLabels(c.plan, report.points);
  const [picked, setPicked] = useState<string | null>(null);
  const variant = labels.length ? (picked ?? labels[0]) : null;

  return (
    <div className="page campaign-page shared" data-status={c.status}>
      <ReportHeading campaign={c} tool={tool} />
      <HostSharingNotice campaign={c} />
      {variant != null && (
        <div className="tabs" role="tablist" aria-label="Variants">
          {labels.map((l) => (
            <button key={l} type="button" role="tab" aria-selected={l === variant} onClick={() => setPicked(l)}>
              {l}
            </button>
          ))}
        </div>
      )}
      <ReportBody campaign={c} points={report.points} variant={variant} labels={labels} tool={tool} profilePoints={report.cpu_profile_points} />
      <div className="stack">
        <section className="card" aria-label="Environment">
          <h2>Environment</h2>
          <FactsTable facts={c.environment} omit={["variants"]} />
        </section>
      </div>
    </div>
  );
}
