import type { PlanPreview } from "../../api/types";
import { describePath, type FieldErrors } from "../../api/errors";
import OfferedLoadChart from "../../charts/OfferedLoadChart";
import { fmtDuration, fmtUnit } from "../../format";
import { rateUnitOf, type ToolInfo } from "../../tools/catalog";
import ScrollBox from "../common/ScrollBox";

/** "8 s – 6 min", or one duration when both ends agree. */
export function durationRange(least: number, most: number): string {
  return Math.round(least) === Math.round(most) ? fmtDuration(most) : `${fmtDuration(least)} – ${fmtDuration(most)}`;
}

/** What the plan will run: points, a chart of the offered load, the estimated duration (a range with a search), or its problems. */
export default function PreviewPanel({
  preview,
  tool,
  errors,
  checking,
}: {
  preview: PlanPreview | undefined;
  tool: ToolInfo | undefined;
  errors: FieldErrors;
  checking: boolean;
}) {
  const problems = Object.entries(errors);
  return (
    <section className="card preview" aria-label="Preview" aria-live="polite">
      <div className="preview-head">
        <h2>Preview</h2>
        {checking && <span className="muted small">checking…</span>}
      </div>
      {problems.length > 0 && (
        <div className="problems" role="alert" data-testid="plan-problems">
          <strong>
            {problems.reduce((n, [, m]) => n + m.length, 0)} problem{problems.length === 1 && problems[0][1].length === 1 ? "" : "s"} to fix
          </strong>
          <ul>
            {problems.map(([path, msgs]) =>
              msgs.map((m) => (
                <li key={path + m}>
                  <span className="mono">{describePath(path)}</span>: {m}
                </li>
              )),
            )}
          </ul>
        </div>
      )}
      {preview && (
        <div className={problems.length ? "stale" : ""}>
          <div className="preview-stats">
            <div>
              <span className="stat-value" data-testid="point-count">
                {preview.point_count_max > preview.point_count ? `${preview.point_count}–${preview.point_count_max}` : preview.point_count}
              </span>
              <span className="stat-label">points</span>
            </div>
            <div>
              <span className="stat-value" data-testid="estimated">
                {durationRange(preview.estimated_min_s, preview.estimated_s)}
              </span>
              <span className="stat-label">estimated</span>
            </div>
          </div>
          {!!preview.searches?.length && (
            <ul className="muted small" data-testid="search-estimates">
              {preview.searches.map((s) => (
                <li key={s.phase_index}>
                  Search (phase {s.phase_index + 1}): {s.trials_min === s.trials_max ? s.trials_max : `${s.trials_min}–${s.trials_max}`} trials,{" "}
                  {durationRange(s.seconds_min, s.seconds_max)}
                  {s.runs > 1 ? ` each of ${s.runs} runs` : ""}
                  {s.budget_bound ? `, its time budget (${fmtDuration(s.time_budget_s)}) at most` : ""}. Its trials are made as it goes, from where
                  the limit lies; a noisier server takes more.
                </li>
              ))}
            </ul>
          )}
          <OfferedLoadChart points={preview.points} tool={tool} />
          <ScrollBox label="Points of the plan" className="preview-table">
            <table className="table compact">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Phase</th>
                  {preview.points.some((p) => p.variant) && <th>Variant</th>}
                  <th className="num">Concurrency</th>
                  <th className="num">Offered</th>
                  <th className="num">Duration</th>
                </tr>
              </thead>
              <tbody>
                {preview.points.map((p) => (
                  <tr key={p.seq}>
                    <td className="muted">{p.seq + 1}</td>
                    <td>
                      {p.phase}
                      {p.repeat > 0 ? <span className="muted"> (repeat {p.repeat + 1})</span> : null}
                    </td>
                    {preview.points.some((x) => x.variant) && <td>{p.variant ?? "—"}</td>}
                    <td className="num">{p.concurrency}</td>
                    <td className="num" title={p.rate_from ?? undefined}>
                      {p.offered_rate == null ? "unlimited" : p.rate_from ? `up to ${fmtUnit(p.offered_rate, rateUnitOf(tool))}` : fmtUnit(p.offered_rate, rateUnitOf(tool))}
                      {p.rate_from && <div className="muted small" data-testid="rate-from">{p.rate_from}</div>}
                    </td>
                    <td className="num">{fmtDuration(p.duration_s)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        </div>
      )}
      {!preview && problems.length === 0 && <p className="muted">The points appear here as you edit.</p>}
    </section>
  );
}
