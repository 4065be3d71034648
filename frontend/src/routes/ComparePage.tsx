import { useState, type FormEvent } from "react";
import { Link } from "react-router-dom";
import { compareExportUrl, useCompare } from "../api/compare";
import { comparisonShare } from "../api/shares";
import OverlayCharts from "../charts/OverlayCharts";
import { colourAt } from "../charts/palette";
import CopyLinkButton from "../components/common/CopyLinkButton";
import GrafanaLink from "../components/common/GrafanaLink";
import PageHead from "../components/common/PageHead";
import ShareButton from "../components/share/ShareButton";
import { Empty, QueryView } from "../components/common/States";
import StatusBadge from "../components/common/StatusBadge";
import DifferencesTable from "../components/compare/DifferencesTable";
import FailoverEventsTable from "../components/compare/FailoverEventsTable";
import Table from "../components/common/Table";
import HeadlineTable from "../components/compare/HeadlineTable";
import PointVerdictsTable from "../components/compare/PointVerdictsTable";
import CpuProfileCompare from "../components/profiling/CpuProfileCompare";
import { fmtDateTime } from "../format";
import { findTool, rateUnitOf } from "../tools/catalog";
import { useTools } from "../tools/useTools";
import { param, useUrlState } from "../urlState";
import ScrollBox from "../components/common/ScrollBox";

/** The campaigns compared, in order (?c=12&c=9@1%20queue): the first is the reference. */
const COMPARE_VIEW = { c: param.list() };

export default function ComparePage() {
  const [view, setView] = useUrlState(COMPARE_VIEW);
  const selectors = view.c;
  const cmp = useCompare(selectors);
  const tools = useTools();
  const [adding, setAdding] = useState("");

  // the selection is a view (Back returns to the previous one); the charts' options in the URL stay as they are
  const setSelectors = (next: string[]) => setView({ c: next });
  const add = (e: FormEvent) => {
    e.preventDefault();
    const v = adding.trim();
    if (v && !selectors.includes(v)) setSelectors([...selectors, v]);
    setAdding("");
  };

  return (
    <div className="page compare-page">
      <PageHead title="Compare">
        <form onSubmit={add} className="inline-form">
          <label>
            <span className="sr-only">Add a campaign id</span>
            <input value={adding} onChange={(e) => setAdding(e.target.value)} placeholder="add campaign id (or id@variant)" size={28} />
          </label>
          <button type="submit" className="btn">
            Add
          </button>
        </form>
        <CopyLinkButton />
        {selectors.length >= 2 && (
          <>
            <a className="btn" href={compareExportUrl(selectors)} download title="one self-contained HTML file: no script, no network, prints cleanly">
              Export HTML
            </a>
            <a className="btn" href={compareExportUrl(selectors, "md.zip")} download title="Markdown tables with the charts as SVG files, zipped">
              Export Markdown
            </a>
          </>
        )}
        <ShareButton {...comparisonShare(selectors)} />
        <GrafanaLink href={cmp.data?.grafana_url} />
      </PageHead>
      {selectors.length < 2 ? (
        <Empty>
          Pick two or more campaigns on the <Link to="/">campaigns page</Link>, or add their ids above.
        </Empty>
      ) : (
        <QueryView query={cmp} loading="Comparing">
          {(data) => (
            <>
              <section className="card flush" aria-label="Campaigns compared">
                <Table columns={["Campaign", "Target", "Tool", "Status", "Started"]} actions="Remove">
                  {data.campaigns.map((c, i) => {
                    // the API's key for this column: "12", or "12@1 queue" for one variant of campaign 12
                    const key = data.selectors[i];
                    const at = key.indexOf("@");
                    const variant = at >= 0 ? key.slice(at + 1) : null;
                    return (
                      <tr key={key}>
                        <td>
                          <span className="swatch" style={{ background: colourAt(i) }} />
                          <Link to={variant != null ? `/campaigns/${c.id}?variant=${encodeURIComponent(variant)}` : `/campaigns/${c.id}`}>
                            #{c.id} {c.name}
                          </Link>
                          {i === 0 && <span className="muted small"> reference</span>}
                        </td>
                        <td>{String((c.target as { name?: string }).name ?? "—")}</td>
                        <td>{c.tool}</td>
                        <td>
                          <StatusBadge status={c.status} partial={c.partial} />
                        </td>
                        <td className="muted small">{fmtDateTime(c.started_at ?? c.created_at)}</td>
                        <td className="row-actions">
                          {i > 0 && (
                            <button type="button" className="btn small" onClick={() => setSelectors([selectors[i], ...selectors.filter((_, j) => j !== i)])}>
                              Make reference
                            </button>
                          )}
                          <button
                            type="button"
                            className="btn small"
                            disabled={selectors.length <= 2}
                            onClick={() => setSelectors(selectors.filter((_, j) => j !== i))}
                            aria-label={`Remove #${key} from the comparison`}
                          >
                            Remove
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </Table>
              </section>
              <section className="card flush" aria-label="Headline metrics">
                <h2 className="pad">Headline</h2>
                <ScrollBox label="Headline metrics table">
                  <HeadlineTable data={data} tool={findTool(tools.data, data.campaigns[0]?.tool)} />
                </ScrollBox>
              </section>
              <PointVerdictsTable data={data} tool={findTool(tools.data, data.campaigns[0]?.tool)} />
              <FailoverEventsTable data={data} rateUnit={rateUnitOf(findTool(tools.data, data.campaigns[0]?.tool))} />
              <CpuProfileCompare data={data} rateUnit={rateUnitOf(findTool(tools.data, data.campaigns[0]?.tool))} />
              <OverlayCharts
                tool={findTool(tools.data, data.campaigns[0]?.tool)}
                series={data.selectors.map((key, i) => ({ key, name: data.campaigns[i]?.name ?? "", points: data.points[key] ?? [] }))}
              />
              <div className="two-col">
                <DifferencesTable title="Plan parameters that differ" rows={data.differences.plan} keys={data.selectors} empty="Same plan parameters." />
                <DifferencesTable title="Environment facts that differ" rows={data.differences.environment} keys={data.selectors} empty="Same environment facts." />
              </div>
              {data.differences.target.length > 0 && (
                <DifferencesTable title="Target details that differ" rows={data.differences.target} keys={data.selectors} empty="" />
              )}
            </>
          )}
        </QueryView>
      )}
    </div>
  );
}
