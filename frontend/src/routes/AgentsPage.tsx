import AgentsTable from "../components/agents/AgentsTable";
import PageHead from "../components/common/PageHead";

export default function AgentsPage() {
  return (
    <div className="page agents-page">
      <PageHead
        title="Agents"
        note={
          <p className="muted">
            Load generators. A plan with <code>agents</code> runs each point on several remote agents at once, its rate and concurrency divided
            between them. Remote agents talk to the API only and hold no database credentials.
          </p>
        }
      />
      <section className="card flush" aria-label="Agents">
        <AgentsTable />
      </section>
    </div>
  );
}
