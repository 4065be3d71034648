import type { ReactNode } from "react";
import type { Agreement, Bottleneck, EvidencePoint, HostSplit, ServerEvidence as Evidence } from "../../api/types";
import ServerCostChart from "../../charts/ServerCostChart";
import { fmtNumber, fmtPct, fmtSignedPct, fmtUnit } from "../../format";
import { concurrencyUnit, rateUnitOf, type ToolInfo } from "../../tools/catalog";
import Table from "../common/Table";

/** The bottleneck's sentence (bold) and the lines that show it. */
function BottleneckText({ of, at }: { of: Bottleneck; at: ReactNode }) {
  return (
    <div className="bottleneck" data-testid="bottleneck" data-kind={of.kind} data-resource={of.resource ?? undefined}>
      <p>
        <strong>{of.text}</strong>
        {at}
      </p>
      {of.evidence.length > 0 && (
        <ul className="evidence-lines">
          {of.evidence.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Where a difference between the server's count and the client's went, else the analysis' sentence when it could not tell. */
function WhereItWent({ agreement }: { agreement: Agreement | null }) {
  if (!agreement) return <>—</>;
  if (agreement.where.length)
    return (
      <ul className="plain" title={agreement.text}>
        {agreement.where.map((w) => (
          <li key={w.what}>
            {w.what}: {fmtNumber(w.rate)}/s{w.share_pct != null ? ` (${fmtPct(w.share_pct, 0)} of the difference)` : ""}
          </li>
        ))}
      </ul>
    );
  return agreement.agree ? <span className="muted">—</span> : <span className="small">{agreement.text}</span>;
}

/** Which of the per-point table's column groups any point has a figure for: a column nothing filled is left out. */
interface Filled {
  counts: boolean;
  cost: boolean;
  split: boolean;
  bottleneck: boolean;
}

/** What the per-point table would show: nothing when no point has a count, a cost or a resource named. */
export function filledColumns(points: EvidencePoint[]): Filled {
  return {
    counts: points.some((p) => p.agreement),
    cost: points.some((p) => p.cost),
    split: points.some((p) => p.host_split),
    bottleneck: points.some((p) => p.bottleneck?.resource),
  };
}

/** "No bottleneck named: x", said once when `text` already begins with the label. */
export function labelled(label: string, text: string | null | undefined): string {
  if (!text) return `${label}.`;
  return text.toLowerCase().startsWith(label.toLowerCase()) ? text[0].toUpperCase() + text.slice(1) : `${label}: ${text}`;
}

/** A host's CPUs over a point, in CPUs busy: "server 1.0 · generator 0.6 · other 0.2 of 2". */
export function splitText(split: HostSplit): string {
  const parts = [`server ${fmtNumber(split.server)}`, split.generator != null ? `generator ${fmtNumber(split.generator)}` : null, `other ${fmtNumber(split.other)}`];
  return parts.filter(Boolean).join(" · ") + (split.cpus != null ? ` of ${fmtNumber(split.cpus)}` : "");
}

/** One point's row: its load, the server's count against the client's, where the difference went, its cost, its bottleneck (units in the headers); only the column groups `filled` has. */
function PointRow({ p, tool, filled }: { p: EvidencePoint; tool: ToolInfo | undefined; filled: Filled }) {
  const a = p.agreement;
  const load = p.offered_rate != null ? fmtNumber(p.offered_rate) : p.concurrency != null ? `${fmtNumber(p.concurrency)} ${concurrencyUnit(tool)}` : "—";
  return (
    <tr data-point={p.point_id} className={a && !a.agree ? "disagree" : undefined}>
      <td>
        <span className="nowrap">{load}</span>
        <span className="muted small">
          {" "}
          {p.phase}
          {p.repeat > 0 ? ` · repetition ${p.repeat + 1}` : ""}
        </span>
      </td>
      {filled.counts && (
        <>
          <td className="num" title={a?.source}>{a ? fmtNumber(a.server_rate) : "—"}</td>
          <td className="num">
            {a ? (
              <>
                {fmtNumber(a.sent_rate)} / {fmtNumber(a.answered_rate)}
                {a.lost_rate ? <span className="muted small"> · {fmtNumber(a.lost_rate)} lost</span> : null}
              </>
            ) : (
              "—"
            )}
          </td>
          <td className="num" data-testid="difference">
            {a ? <span className={a.agree ? "" : "warn-text"}>{fmtSignedPct(a.difference_pct)}</span> : "—"}
          </td>
          <td>
            <WhereItWent agreement={a} />
          </td>
        </>
      )}
      {filled.cost && (
        <td className="num" title={p.cost ? `${p.cost.source}; the process used ${fmtPct(p.cost.cpu_pct, 1)} of one CPU${p.cost.usable_cpus != null ? ` (it may use ${fmtNumber(p.cost.usable_cpus)})` : ""}` : undefined} data-unit={p.cost?.unit}>
          {p.cost ? fmtNumber(p.cost.value) : "—"}
        </td>
      )}
      {filled.split && (
        <td className="num small" title={p.host_split?.text} data-testid="host-split">
          {p.host_split ? splitText(p.host_split) : "—"}
        </td>
      )}
      {filled.bottleneck && <td title={p.bottleneck?.text}>{p.bottleneck?.resource ?? <span className="muted">{p.bottleneck ? "none" : "—"}</span>}</td>}
    </tr>
  );
}

/**
 * What the server's own metrics say about the campaign (`analysis.evidence`): the bottleneck the conclusion leads with and its
 * evidence, the notes on reading it (host CPU shared with the generator…), then per point the server's count beside the client's,
 * where a difference went, the cost per unit of work (its unit from the analysis; the server process's share of one CPU in its
 * title), the host's CPUs split between the server, the load generator and the rest, and the point's bottleneck. Nothing for an
 * analysis without evidence (older ones); a muted line when there is none and the analysis says why.
 */
export default function ServerEvidence({ evidence, tool, suffix }: { evidence: Evidence | null; tool: ToolInfo | undefined; suffix?: ReactNode }) {
  if (!evidence) return null;
  const { bottleneck, at, points, notes, missing } = evidence;
  const unit = rateUnitOf(tool);
  // one analysis, one unit of work: the points' cost unit, as the analysis gives it
  const costUnit = points.find((p) => p.cost)?.cost?.unit;
  if (!points.length && !bottleneck) {
    return missing ? (
      <p className="muted small" data-testid="server-evidence-missing">
        No server evidence: {missing}
      </p>
    ) : null;
  }
  const filled = filledColumns(points);
  const tabled = filled.counts || filled.cost || filled.split || filled.bottleneck;
  const judged = [at?.where, at?.offered_rate != null ? `${fmtUnit(at.offered_rate, unit)} offered` : null].filter(Boolean).join(", ");
  const where = judged ? <span className="muted small"> · {judged}</span> : null;
  return (
    <section className="card server-evidence" aria-label="Server evidence" data-testid="server-evidence">
      <h2>Server evidence{suffix}</h2>
      {bottleneck ? <BottleneckText of={bottleneck} at={where} /> : <p className="muted">{labelled("No bottleneck named", missing)}</p>}
      {notes.length > 0 && (
        <ul className="muted small notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {points.length > 0 && !tabled && (
        <p className="muted small" data-testid="server-evidence-empty">
          No per-point server figures: nothing counted the server&apos;s requests or its CPU at these points. An exporter of the server (its request
          count), the process monitor (its CPU) or a node exporter (its host&apos;s CPUs and drops) would fill a table here.
        </p>
      )}
      {points.length > 0 && tabled && (
        <>
          <p className="muted small" data-testid="server-evidence-units">
            Rates in {unit}
            {costUnit ? `; cost in ${costUnit}` : ""}.
          </p>
          <Table
            columns={[
              "Load",
              ...(filled.counts
                ? [{ label: "Server counted", className: "num" }, { label: "Client sent / answered", className: "num" }, { label: "Difference", className: "num" }, "Where it went"]
                : []),
              ...(filled.cost ? [{ label: "Cost", className: "num" }] : []),
              ...(filled.split ? [{ label: "Host CPUs busy", className: "num" }] : []),
              ...(filled.bottleneck ? ["Bottleneck"] : []),
            ]}
            label="Server evidence per point"
            data-testid="server-evidence-points"
          >
            {points.map((p) => (
              <PointRow key={p.point_id} p={p} tool={tool} filled={filled} />
            ))}
          </Table>
          {filled.cost && <ServerCostChart points={points} rateUnit={unit} />}
        </>
      )}
    </section>
  );
}
