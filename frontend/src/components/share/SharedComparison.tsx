import type { Comparison } from "../../api/compare";
import type { ToolInfo } from "../../tools/catalog";
import OverlayCharts from "../../charts/OverlayCharts";
import { colourAt } from "../../charts/palette";
import { fmtDateTime } from "../../format";
import { findTool, rateUnitOf } from "../../tools/catalog";
import StatusBadge from "../common/StatusBadge";
import Table from "../common/Table";
import DifferencesTable from "../compare/DifferencesTable";
import FailoverEventsTable from "../compare/FailoverEventsTable";
import HeadlineTable from "../compare/HeadlineTable";
import PointVerdictsTable from "../compare/PointVerdictsTable";
import ScrollBox from "../common/ScrollBox";

/** A comparison as a share link and an exported file show it: the compare page's tables and charts, read-only (no add, remove or links). */
export default function SharedComparison({ report }: { report: { comparison: Comparison; tools: ToolInfo[] } }) {
  const data = report.comparison;
  const tool = findTool(report.tools, data.campaigns[0]?.tool);
  return (
    <div className="page compare-page shared">
      <div className="page-head">
        <h1>Comparison</h1>
      </div>
      <section className="card flush" aria-label="Campaigns compared">
        <Table columns={["Campaign", "Tool", "Status", "Started"]}>
          {data.campaigns.map((c, i) => (
            <tr key={data.selectors[i]}>
              <td>
                <span className="swatch" style={{ background: colourAt(i) }} />
                {c.name}
                {i === 0 && <span className="muted small"> reference</span>}
              </td>
              <td>{c.tool}</td>
              <td>
                <StatusBadge status={c.status} partial={c.partial} />
              </td>
              <td className="muted small">{fmtDateTime(c.started_at ?? c.created_at)}</td>
            </tr>
          ))}
        </Table>
      </section>
      <section className="card flush" aria-label="Headline metrics">
        <h2 className="pad">Headline</h2>
        <ScrollBox label="Headline metrics table">
          <HeadlineTable data={data} tool={tool} />
        </ScrollBox>
      </section>
      <PointVerdictsTable data={data} tool={tool} />
      <FailoverEventsTable data={data} rateUnit={rateUnitOf(tool)} />
      <OverlayCharts tool={tool} series={data.selectors.map((key, i) => ({ key, name: data.campaigns[i]?.name ?? "", points: data.points[key] ?? [] }))} />
      <div className="two-col">
        <DifferencesTable title="Plan parameters that differ" rows={data.differences.plan} keys={data.selectors} empty="Same plan parameters." />
        <DifferencesTable title="Environment facts that differ" rows={data.differences.environment} keys={data.selectors} empty="Same environment facts." />
      </div>
      {data.differences.target.length > 0 && (
        <DifferencesTable title="Target details that differ" rows={data.differences.target} keys={data.selectors} empty="" />
      )}
    </div>
  );
}
