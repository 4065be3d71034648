import type { ReactNode } from "react";
import type { Comparison } from "../../api/compare";
import OverlayCharts from "../../charts/OverlayCharts";
import { colourAt } from "../../charts/palette";
import { fmtDateTime } from "../../format";
import { findTool, rateUnitOf, type ToolInfo } from "../../tools/catalog";
import ScrollBox from "../common/ScrollBox";
import StatusBadge from "../common/StatusBadge";
import Table from "../common/Table";
import CpuProfileCompare from "../profiling/CpuProfileCompare";
import DifferencesTable from "./DifferencesTable";
import FailoverEventsTable from "./FailoverEventsTable";
import HeadlineTable from "./HeadlineTable";
import PointVerdictsTable from "./PointVerdictsTable";

/** A comparison's column key ("12", or "12@1 queue" for one variant of campaign 12) split into campaign and variant. */
export function variantOfKey(key: string): string | null {
  const at = key.indexOf("@");
  return at >= 0 ? key.slice(at + 1) : null;
}

/** What the signed-in compare page adds to the body: links to each campaign's report and the rows' controls. */
export interface LiveControls {
  /** A campaign's name as a link to its report (variant: the report's tab). */
  link: (campaignId: number, variant: string | null, text: ReactNode) => ReactNode;
  /** The controls of a campaign's row (make reference, remove). */
  actions: (key: string, index: number) => ReactNode;
}

/** The campaigns side by side: the first is the reference; with `live`, names link and rows have controls. */
function CampaignsCompared({ data, live }: { data: Comparison; live?: LiveControls }) {
  return (
    <section className="card flush" aria-label="Campaigns compared">
      <Table columns={["Campaign", "Target", "Tool", "Status", "Started"]} actions={live ? "Remove" : undefined}>
        {data.campaigns.map((c, i) => {
          const key = data.selectors[i];
          const name = `#${c.id} ${c.name}`;
          return (
            <tr key={key}>
              <td>
                <span className="swatch" style={{ background: colourAt(i) }} />
                {live ? live.link(c.id, variantOfKey(key), name) : name}
                {i === 0 && <span className="muted small"> reference</span>}
              </td>
              <td>{String((c.target as { name?: string } | null)?.name ?? "—")}</td>
              <td>{c.tool}</td>
              <td>
                <StatusBadge status={c.status} partial={c.partial} />
              </td>
              <td className="muted small">{fmtDateTime(c.started_at ?? c.created_at)}</td>
              {live && <td className="row-actions">{live.actions(key, i)}</td>}
            </tr>
          );
        })}
      </Table>
    </section>
  );
}

/**
 * One comparison as every place draws it (the compare page, a share link's page, the exported HTML and Markdown files):
 * the campaigns, the headline, the per-point verdicts, failover events, the overlaid charts and what differs, from one
 * GET /compare answer and the tools' descriptions, and the CPU profiles' differential (through the share link on a
 * shared page; carried by the document in a file). `live` (the signed-in page only) adds links and row controls.
 */
export default function ComparisonBody({ data, tools, live }: { data: Comparison; tools: ToolInfo[] | undefined; live?: LiveControls }) {
  const tool = findTool(tools, data.campaigns[0]?.tool);
  return (
    <div className="stack comparison-body" data-testid="comparison-body">
      <CampaignsCompared data={data} live={live} />
      <section className="card flush" aria-label="Headline metrics">
        <h2 className="pad">Headline</h2>
        <ScrollBox label="Headline metrics table">
          <HeadlineTable data={data} tool={tool} />
        </ScrollBox>
      </section>
      <PointVerdictsTable data={data} tool={tool} />
      <FailoverEventsTable data={data} rateUnit={rateUnitOf(tool)} />
      <CpuProfileCompare data={data} rateUnit={rateUnitOf(tool)} />
      <OverlayCharts tool={tool} series={data.selectors.map((key, i) => ({ key, name: data.campaigns[i]?.name ?? "", points: data.points[key] ?? [] }))} />
      <div className="two-col">
        <DifferencesTable title="Plan parameters that differ" rows={data.differences.plan} keys={data.selectors} empty="Same plan parameters." />
        <DifferencesTable title="Environment facts that differ" rows={data.differences.environment} keys={data.selectors} empty="Same environment facts." />
      </div>
      {data.differences.target.length > 0 && <DifferencesTable title="Target details that differ" rows={data.differences.target} keys={data.selectors} empty="" />}
    </div>
  );
}
