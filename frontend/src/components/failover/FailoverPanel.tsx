import { usePointOutcomes } from "../../api/outcomes";
import { eventLabel, eventsOf } from "../../charts/eventMarkers";
import { fmtNumber } from "../../format";
import { ErrorState, Loading } from "../common/States";
import OutcomesChart from "./OutcomesChart";
import SpreadPanel from "./SpreadPanel";
import { failoverOf, persistenceText, type Spread } from "./failover";

/**
 * A kbhttp point's outcomes in its evidence (issue 39): its requests by outcome over the run with its events marked, where
 * the traffic went before, during and after each failure event (a chart and a table; over the whole run without one),
 * and how well connections stayed on one backend.
 */
export default function FailoverPanel({ pointId, extra }: { pointId: number; extra: Record<string, unknown> }) {
  const found = usePointOutcomes(pointId);
  const events = eventsOf(extra);
  const failovers = failoverOf(extra);
  if (found.isPending) return <Loading what="Loading the request outcomes" />;
  if (found.isError) return <ErrorState error={found.error} retry={() => found.refetch()} what="the point's request outcomes" />;
  const { outcomes, summary } = found.data;
  const persistence = [summary.persistence, ...failovers.map((f) => f.persistence)].map((p) => persistenceText(p)).filter((p): p is string => !!p);
  return (
    <section className="failover" aria-label="Request outcomes" data-testid="failover-panel">
      <OutcomesChart outcomes={outcomes} events={events} id={`outcomes${pointId}`} />
      {failovers.length ? (
        failovers.map((f, i) => (
          <SpreadPanel key={i} spread={f.spread}
            title={`Spread over backends around ${eventLabel({ ...f, t: f.event })} at ${fmtNumber(f.at_s)} s`} />
        ))
      ) : (
        <SpreadPanel spread={{ whole: summary.spread as Spread }} title="Spread over backends (the whole run)" />
      )}
      {persistence.map((p) => (
        <p className="muted small" key={p} data-testid="persistence">
          Persistence: {p}.
        </p>
      ))}
    </section>
  );
}
