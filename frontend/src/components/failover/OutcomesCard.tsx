import { usePointOutcomes } from "../../api/outcomes";
import type { Point } from "../../api/types";
import { eventsOf } from "../../charts/eventMarkers";
import { stabilityPoint } from "../campaign/StabilityChart";
import OutcomesChart from "./OutcomesChart";

/** The report's outcomes chart: the requests by outcome of the point its stability chart draws, with its events marked,
 * when that point stored its outcomes (on a shared page through the link; in a file from the document). */
export default function OutcomesCard({ points }: { points: Point[] }) {
  const stab = stabilityPoint(points);
  const shown = stab?.extra?.outcomes_stored === true ? stab : undefined;
  const found = usePointOutcomes(shown?.id ?? null);
  if (!shown) return null;
  return (
    <section className="card" aria-label={`Request outcomes of point ${shown.seq + 1}`}>
      {found.data ? (
        <OutcomesChart outcomes={found.data.outcomes} events={eventsOf(shown.extra)} id={`outcomes${shown.id}`} />
      ) : (
        <p className="muted">{found.isError ? `Outcomes unavailable: ${found.error.message}` : "Loading the request outcomes…"}</p>
      )}
    </section>
  );
}
