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

/** What the changed functions are ranked by: self (what grew in itself, the default, as perf diff and pprof rank) or total. */
export type Ranking = "self" | "total";

const changeClass = (v: number) => (v > 0 ? "grew" : v < 0 ? "shrank" : "");

/** The functions whose cost changed most, ranked by `by`'s change per 1,000 requests (its columns first), with the
 * other figure and the share of each side's samples beside it. Changes are B − A. */
export function ChangedFunctionsTable({ functions, by = "self" }: { functions: FunctionChange[]; by?: Ranking }) {
  const other: Ranking = by === "self" ? "total" : "self";
  const name = { self: "Self", total: "Total" };
  return (
    <Table
      label={`Functions whose ${by} cost changed most`}
      className="table changed-functions"
      data-ranked-by={by}
      columns={[
        "Function",
        { label: `${name[by]} / 1,000 req. A → B`, className: "num" },
        { label: `${name[by]} change (B − A)`, className: "num" },
        { label: `${name[other]} change (B − A)`, className: "num" },
        { label: `${name[by]} share A → B`, className: "num" },
      ]}
    >
      {functions.map((f) => {
        const change = by === "self" ? f.self_per_1k_change : f.total_per_1k_change;
        const otherChange = by === "self" ? f.total_per_1k_change : f.self_per_1k_change;
        return (
          <tr key={f.function}>
            <td className="mono">{f.function}</td>
            <td className="num">
              {fmtNumber(by === "self" ? f.self_per_1k_a : f.total_per_1k_a)} → {fmtNumber(by === "self" ? f.self_per_1k_b : f.total_per_1k_b)}
            </td>
            <td className={`num ${changeClass(change)}`}>{signed(change)}</td>
            <td className="num">{signed(otherChange)}</td>
            <td className="num">
              {fmtNumber(by === "self" ? f.self_pct_a : f.total_pct_a, 1)} % → {fmtNumber(by === "self" ? f.self_pct_b : f.total_pct_b, 1)} %
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/** The changed functions, by self change (the default) or by total change (the second view), and how changes are signed. */
export function ChangedFunctions({ diff, interactive = false }: { diff: CpuProfileDiff; interactive?: boolean }) {
  const [by, setBy] = useState<Ranking>("self");
  const ranked = (r: Ranking) => (r === "total" && diff.functions_by_total?.length ? diff.functions_by_total : diff.functions);
  const said: Record<Ranking, string> = {
    self: "Ranked by self change: what grew in itself (as perf diff and pprof rank).",
    total: "Ranked by total change: the function with everything it called.",
  };
  // a file cannot switch views: it shows both, self first
  const views: Ranking[] = interactive ? [by] : ["self", "total"];
  return (
    <>
      <h4>Functions whose cost changed most</h4>
      <p className="muted small" data-testid="diff-sign">
        Changes are {diff.sign ?? "B − A per 1,000 requests, A the reference"}: positive grew in B.
      </p>
      {interactive && (
        <label className="small">
          Rank by{" "}
          <select value={by} onChange={(e) => setBy(e.target.value as Ranking)} aria-label="Rank the changed functions by">
            <option value="self">self change (what grew in itself)</option>
            <option value="total">total change (with what it called)</option>
          </select>
        </label>
      )}
      {views.map((r) => (
        <div key={r}>
          <p className="muted small">{said[r]}</p>
          <ChangedFunctionsTable functions={ranked(r)} by={r} />
        </div>
      ))}
    </>
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
      <ChangedFunctions diff={diff} interactive={interactive} />
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
      <p className="muted small">Every change is B − A per 1,000 requests, A the reference (#{ref}): positive grew in B, negative shrank.</p>
      {others.map((k) => (
        <Against key={k} data={data} keyB={k} rateUnit={rateUnit} />
      ))}
    </section>
  );
}
