import { fmtMs, fmtNumber, fmtPct } from "../../format";

/** One agent's share of a fanned point, as the point's `extra.shares` stores it. */
interface Share {
  agent: string;
  offered_rate?: number | null;
  achieved_rate?: number | null;
  cpu_s?: number | null;
  cpus?: number | null;
  started_at?: number | null;
  error?: string | null;
}

const isShare = (v: unknown): v is Share => typeof v === "object" && v !== null && typeof (v as Share).agent === "string";

/** The shares of a point run by several agents (`extra.shares`), or null for a one-agent point. */
export function sharesOf(extra: Record<string, unknown> | null | undefined): Share[] | null {
  const shares = extra?.shares;
  return Array.isArray(shares) && shares.length > 0 && shares.every(isShare) ? shares : null;
}

/** Per agent: offered and achieved rate, its generator's CPU, its start after the earliest agent's, its error. */
export default function SharesTable({ shares, skewMs, durationS }: { shares: Share[]; skewMs?: number | null; durationS?: number | null }) {
  const starts = shares.map((s) => s.started_at).filter((t): t is number => typeof t === "number");
  const first = starts.length ? Math.min(...starts) : null;
  const cpuPct = (s: Share) =>
    s.cpu_s != null && s.cpus && durationS ? fmtPct((100 * s.cpu_s) / durationS / s.cpus, 0) : s.cpu_s != null ? `${fmtNumber(s.cpu_s)} s` : "—";
  return (
    <table className="table shares" data-testid="shares">
      <caption>
        {shares.length} agents{skewMs != null && <> · start skew {fmtMs(skewMs)}</>}
      </caption>
      <thead>
        <tr>
          <th scope="col">agent</th>
          <th scope="col">offered</th>
          <th scope="col">achieved</th>
          <th scope="col">CPU</th>
          <th scope="col">start +ms</th>
          <th scope="col">error</th>
        </tr>
      </thead>
      <tbody>
        {shares.map((s) => (
          <tr key={s.agent} className={s.error ? "failed" : undefined}>
            <th scope="row">{s.agent}</th>
            <td className="num">{fmtNumber(s.offered_rate)}</td>
            <td className="num">{fmtNumber(s.achieved_rate)}</td>
            <td className="num">{cpuPct(s)}</td>
            <td className="num">{first != null && s.started_at != null ? fmtNumber((s.started_at - first) * 1000) : "—"}</td>
            <td className={s.error ? "error-text" : undefined}>{s.error ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
