/** A link to the team's Grafana dashboard over a report's time range; the API builds the URL (GRAFANA_URL set), or gives none. */
export default function GrafanaLink({ href }: { href?: string | null }) {
  if (!href) return null;
  return (
    <a className="btn link" href={href} target="_blank" rel="noopener noreferrer" title="the load beside the servers' metrics, over this time range">
      Grafana
    </a>
  );
}
