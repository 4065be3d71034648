import { useMemo, useState } from "react";
import type { Comparison, MatchedPoint } from "../../api/compare";
import { asksCpuProfile, isMissing, useCpuProfileDiff, type CpuProfileDiff, type FunctionChange } from "../../api/cpuProfiles";
import type { Point } from "../../api/types";
import FlameGraph from "../../charts/FlameGraph";
import { diffStacks, type FlameFrame } from "../../charts/flame";
import { colourAt } from "../../charts/palette";
import { fmtNumber, fmtUnit } from "../../format";
import Table from "../common/Table";

/** A change with its sign: "+2.37", "−0.41". */
function signed(v: number): string {
  const s = fmtNumber(Math.abs(v));
  return v > 0 ? `+${s}` : v < 0 ? `−${s}` : s;
}

/** A matched load of the comparison and the completed point of each side there (the first repetition). */
export interface ProfilePair {
  label: string;
  a: Point;
  b: Point;
}

/** The loads the comparison matched (its per-point verdict rows: phase, concurrency, offered rate) where both sides
 * have a completed point, each with those two points. */
export function matchedPairs(rows: MatchedPoint[], pointsA: Point[], pointsB: Point[], rateUnit?: string): ProfilePair[] {
  const at = (points: Point[], r: MatchedPoint) =>
    points.find((p) => p.status === "completed" && p.phase === r.phase && p.concurrency === r.concurrency && (p.offered_rate ?? null) === r.offered_rate);
  return rows.flatMap((r) => {
    const a = at(pointsA, r);
    const b = at(pointsB, r);
    const rate = r.offered_rate == null ? "unlimited" : fmtUnit(r.offered_rate, rateUnit ?? null);
    return a && b ? [{ label: `${r.phase} · concurrency ${r.concurrency} · ${rate}`, a, b }] : [];
  });
}

/** A differential frame's tooltip: per 1,000 requests in A and B, and the change. */
function describeChange(f: FlameFrame): string {
  return `${f.name}: ${fmtNumber(f.a)} → ${fmtNumber(f.b)} samples per 1,000 requests (${signed(f.b - f.a)})`;
}

/** The functions whose cost changed most, per 1,000 requests and as a share of each side's samples. */
export function ChangedFunctionsTable({ functions }: { functions: FunctionChange[] }) {
  return (
    <Table
      label="Functions whose cost changed most"
      className="table changed-functions"
      columns={[
        "Function",
        { label: "Total / 1,000 req. A → B", className: "num" },
        { label: "Change", className: "num" },
        { label: "Share A → B", className: "num" },
        { label: "Self / 1,000 req. change", className: "num" },
      ]}
    >
      {functions.map((f) => (
        <tr key={f.function}>
          <td className="mono">{f.function}</td>
          <td className="num">
            {fmtNumber(f.total_per_1k_a)} → {fmtNumber(f.total_per_1k_b)}
          </td>
          <td className={`num ${f.total_per_1k_change > 0 ? "grew" : f.total_per_1k_change < 0 ? "shrank" : ""}`}>{signed(f.total_per_1k_change)}</td>
          <td className="num">
            {fmtNumber(f.total_pct_a, 1)} % → {fmtNumber(f.total_pct_b, 1)} %
          </td>
          <td className="num">{signed(f.self_per_1k_change)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** The differential of two points: the flame graph coloured by change, and the functions that changed most. */
export function CpuProfileDiffView({ diff, interactive = false }: { diff: CpuProfileDiff; interactive?: boolean }) {
  const stacks = useMemo(() => diffStacks(diff.stacks), [diff.stacks]);
  const process = diff.b.process === diff.a.process ? diff.a.process : `${diff.a.process} / ${diff.b.process}`;
  return (
    <div data-testid="cpu-profile-diff">
      <p className="muted small">
        {process}: {fmtNumber(diff.a.per_1k)} → {fmtNumber(diff.b.per_1k)} samples per 1,000 requests ({diff.a.stack_depth ?? "—"} / {diff.b.stack_depth ?? "—"}). Width: the
        larger of A's and B's samples per 1,000 requests; <span className="grew">red</span> grew from A to B, <span className="shrank">blue</span> shrank.
      </p>
      <FlameGraph stacks={stacks} diff title={`Differential flame graph: ${process}, B against A`} describe={describeChange} interactive={interactive} />
      <h4>Functions whose cost changed most</h4>
      <ChangedFunctionsTable functions={diff.functions} />
    </div>
  );
}

/** One campaign against the reference: pick a matched load, see what grew. */
function Against({ data, keyB, rateUnit }: { data: Comparison; keyB: string; rateUnit?: string }) {
  const ref = data.selectors[0];
  const rows = (data.point_verdicts[keyB]?.points ?? []) as MatchedPoint[];
  const pairs = useMemo(() => matchedPairs(rows, data.points[ref] ?? [], data.points[keyB] ?? [], rateUnit), [rows, data.points, ref, keyB, rateUnit]);
  const [picked, setPicked] = useState<number | null>(null);
  // the highest matched load by default: where the server works hardest
  const index = picked ?? pairs.length - 1;
  const pair = pairs[index];
  const diff = useCpuProfileDiff(pair?.a.id ?? null, pair?.b.id ?? null);
  const i = data.selectors.indexOf(keyB);
  return (
    <section aria-label={`CPU profile of #${keyB} against #${ref}`} className="cpu-profile-compare">
      <h3>
        <span className="swatch" style={{ background: colourAt(i) }} /> #{keyB} (B) against #{ref} (A)
      </h3>
      {!pairs.length ? (
        <p className="muted">No matched load has a completed point on both sides.</p>
      ) : (
        <>
          <label>
            Matched load{" "}
            <select value={index} onChange={(e) => setPicked(Number(e.target.value))}>
              {pairs.map((p, j) => (
                <option key={j} value={j}>
                  {p.label} (points {p.a.seq + 1} and {p.b.seq + 1})
                </option>
              ))}
            </select>
          </label>
          {diff.isPending ? (
            <p className="muted small">Loading the profiles…</p>
          ) : diff.isError ? (
            <p className="muted small">CPU profiles unavailable: {diff.error.message}</p>
          ) : isMissing(diff.data) ? (
            <p className="muted small" data-testid="cpu-profile-missing">No differential: {diff.data.missing}</p>
          ) : (
            <CpuProfileDiffView diff={diff.data} interactive />
          )}
        </>
      )}
    </section>
  );
}

/** Where the server's CPU went differently: for each campaign against the reference, when both plans ask for CPU
 * profiles, the differential flame graph of a matched load and the functions whose cost changed most. */
export default function CpuProfileCompare({ data, rateUnit }: { data: Comparison; rateUnit?: string }) {
  const ref = data.selectors[0];
  const profiled = (key: string) => asksCpuProfile(data.campaigns[data.selectors.indexOf(key)]?.plan);
  const others = data.selectors.slice(1).filter((k) => profiled(ref) && profiled(k) && data.point_verdicts[k]);
  if (!others.length) return null;
  return (
    <section className="card" aria-label="CPU profiles compared" data-testid="cpu-profile-compare">
      <h2>Where the CPU went: B against A, per 1,000 requests</h2>
      {others.map((k) => (
        <Against key={k} data={data} keyB={k} rateUnit={rateUnit} />
      ))}
    </section>
  );
}
