import { useMemo, useState } from "react";
import { isMissing, TOP_FUNCTIONS, useCpuFunctions, useCpuProfile, type FoldedProfile, type FunctionCost } from "../../api/cpuProfiles";
import FlameGraph from "../../charts/FlameGraph";
import { parseFolded, type FlameFrame } from "../../charts/flame";
import { fmtCount, fmtDuration, fmtNumber, fmtPct } from "../../format";
import Table from "../common/Table";

/** "12 samples, 3.4 % of coredns's samples, 0.51 per 1,000 requests (self 4)": a profile frame's tooltip. */
export function describeFrame(profile: Pick<FoldedProfile, "process" | "requests">, f: FlameFrame, total: number): string {
  const per = profile.requests ? `, ${fmtNumber((1000 * f.value) / profile.requests)} per 1,000 requests` : "";
  return `${f.name}: ${fmtCount(f.value)} samples, ${fmtPct(total ? (100 * f.value) / total : 0)} of ${profile.process}'s samples${per} (self ${fmtCount(f.self)})`;
}

/** The top functions: self and total share of the process's samples, and per 1,000 requests. */
export function TopFunctionsTable({ functions, caption }: { functions: FunctionCost[]; caption: string }) {
  return (
    <Table
      label={caption}
      className="table top-functions"
      columns={["Function", { label: "Self", className: "num" }, { label: "Total", className: "num" }, { label: "Self / 1,000 req.", className: "num" }, { label: "Total / 1,000 req.", className: "num" }]}
    >
      {functions.map((f) => (
        <tr key={f.function}>
          <td className="mono">{f.function}</td>
          <td className="num">{fmtPct(f.self_pct)}</td>
          <td className="num">{fmtPct(f.total_pct)}</td>
          <td className="num">{fmtNumber(f.self_per_1k)}</td>
          <td className="num">{fmtNumber(f.total_per_1k)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** What the profile holds, in a line: its process, window, samples, CPU and stack depth. */
function ProfileFacts({ p }: { p: FoldedProfile }) {
  return (
    <p className="muted small" data-testid="cpu-profile-facts">
      <strong className="stack-depth">{p.stack_depth ?? "no user frames"}</strong> · {p.process} at {p.frequency_hz} Hz over {fmtDuration(p.window_s)}: {fmtCount(p.samples)} samples
      {p.cpu_pct != null && <> ({fmtNumber(p.cpu_pct, 1)} % of a CPU)</>}
      {p.per_1k != null && <>, {fmtNumber(p.per_1k)} per 1,000 requests</>}
      {p.dropped_stacks > 0 && (
        <>
          {" "}
          · {fmtCount(p.dropped_stacks)} lightest stacks ({fmtCount(p.dropped_samples)} samples) left out
        </>
      )}
      {p.stack_depth === "leaf functions only" && <> · the server keeps no frame pointers: the graph shows which functions ran, not who called them</>}
    </p>
  );
}

/**
 * A point's CPU profile: its stack depth and figures, its flame graph (zoomable when `interactive`) and its top
 * functions. A point without one shows the API's reason in a line (409), or nothing while it loads.
 */
export default function CpuProfile({ pointId, heading, interactive = false }: { pointId: number; heading: string; interactive?: boolean }) {
  const profile = useCpuProfile(pointId);
  const [by, setBy] = useState<"self" | "total">("self");
  const top = useCpuFunctions(pointId, by);
  const stacks = useMemo(() => (profile.data && !isMissing(profile.data) ? parseFolded(profile.data.folded) : []), [profile.data]);
  if (profile.isPending) return null;
  if (profile.isError) return <p className="muted small">CPU profile unavailable: {profile.error.message}</p>;
  const p = profile.data;
  if (isMissing(p)) return <p className="muted small" data-testid="cpu-profile-missing">No CPU profile: {p.missing}</p>;
  const functions = top.data && !isMissing(top.data) ? top.data.functions : [];
  return (
    <section className="cpu-profile" aria-label={heading} data-testid="cpu-profile">
      <h3>{heading}</h3>
      <ProfileFacts p={p} />
      <FlameGraph stacks={stacks} title={`Flame graph: ${p.process}`} describe={(f, total) => describeFrame(p, f, total)} interactive={interactive} />
      <h4>
        Top functions by {by} samples
        {interactive && (
          <label className="chart-options">
            rank by{" "}
            <select value={by} onChange={(e) => setBy(e.target.value as "self" | "total")}>
              <option value="self">self</option>
              <option value="total">total</option>
            </select>
          </label>
        )}
      </h4>
      {functions.length ? <TopFunctionsTable functions={functions} caption={`Top ${TOP_FUNCTIONS} functions of ${p.process}`} /> : <p className="muted small">{top.isPending ? "Loading…" : "No functions."}</p>}
    </section>
  );
}
