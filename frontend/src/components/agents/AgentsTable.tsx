import { useAgents } from "../../api/agents";
import type { Agent } from "../../api/types";
import { fmtDateTime } from "../../format";
import { QueryView } from "../common/States";
import Table from "../common/Table";

type Facts = { remote?: boolean; role?: string; cpus?: number; addresses?: string[]; clock_offset_ms?: number | null; clock_rtt_ms?: number | null };

function clock(f: Facts): string {
  if (f.clock_offset_ms == null) return "—";
  const rtt = f.clock_rtt_ms != null ? ` (round trip ${f.clock_rtt_ms.toFixed(1)} ms)` : "";
  return `${f.clock_offset_ms >= 0 ? "+" : ""}${f.clock_offset_ms.toFixed(2)} ms${rtt}`;
}

/** Every agent with its health and facts: the local worker, and remote agents registered through the API. */
export function AgentRows({ agents }: { agents: Agent[] }) {
  return (
    <Table columns={["Agent", "Health", "Kind", "CPUs", "Addresses", "Clock offset", "Tools", "Last heard"]} data-testid="agents-table">
      {agents.map((a) => {
        const f = (a.facts ?? {}) as Facts;
        return (
          <tr key={a.name}>
            <td>
              <strong className="mono">{a.name}</strong>
              <div className="muted small">{a.hostname}</div>
            </td>
            <td>
              <span className={`badge ${a.alive ? "status-completed" : "status-failed"}`}>{a.status}</span>
            </td>
            <td className="small">{f.role === "observer" ? "observer (through the API)" : f.remote ? "remote (through the API)" : "local worker"}</td>
            <td className="num">{f.cpus ?? "—"}</td>
            <td className="mono small">{f.addresses?.join(", ") || "—"}</td>
            <td className="mono small">{clock(f)}</td>
            <td className="small">
              {Object.entries(a.tools)
                .map(([tool, version]) => `${tool} ${version ?? "?"}`)
                .join(", ") || "—"}
            </td>
            <td className="muted small">{fmtDateTime(a.last_heartbeat)}</td>
          </tr>
        );
      })}
      {agents.length === 0 && (
        <tr>
          <td colSpan={8} className="muted small">
            No agent has registered: start a worker, or `kneeboard agent --name NAME --url API_URL` with an agent credential on a load machine.
          </td>
        </tr>
      )}
    </Table>
  );
}

export default function AgentsTable() {
  const agents = useAgents();
  return (
    <QueryView query={agents} loading="Loading agents">
      {(data) => <AgentRows agents={data} />}
    </QueryView>
  );
}
