import { useMe } from "../api/auth";
import AgentCredentials from "../components/agents/AgentCredentials";
import AgentsTable from "../components/agents/AgentsTable";
import PageHead from "../components/common/PageHead";

export default function AgentsPage() {
  const me = useMe();
  return (
    <div className="page agents-page">
      <PageHead
        title="Agents"
        note={
          <p className="muted">
            Load generators. A plan with <code>agents</code> runs each point on several remote agents at once, its rate and concurrency divided
            between them. Remote agents talk to the API only, with a credential bound to their name: no broker, no database.
          </p>
        }
      />
      <section className="card flush" aria-label="Agents">
        <AgentsTable />
      </section>
      {me.data?.role === "admin" && <AgentCredentials />}
    </div>
  );
}
