import { useState } from "react";
import {
  useAgentCredentials,
  useCreateAgentCredential,
  useRevokeAgentCredential,
  type AgentCredentialIssued,
  type AgentCredentialRole,
} from "../../api/agentCredentials";
import { fmtDateTime } from "../../format";
import { ErrorState, Loading } from "../common/States";
import Table from "../common/Table";

/** Admins: make a credential for a remote agent (its secret and start command shown once), list and revoke them. */
export default function AgentCredentials() {
  const [name, setName] = useState("");
  const [role, setRole] = useState<AgentCredentialRole>("load");
  const [issued, setIssued] = useState<AgentCredentialIssued | null>(null);
  const list = useAgentCredentials(true);
  const create = useCreateAgentCredential();
  const revoke = useRevokeAgentCredential();
  return (
    <section className="card" aria-labelledby="credentials-title">
      <h2 id="credentials-title">Agent credentials</h2>
      <p className="muted small">
        A remote agent holds one credential, bound to its name, and the API's URL: never the broker or the database.
      </p>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate({ agent: name.trim(), role }, { onSuccess: setIssued });
        }}
      >
        <label>
          Agent name{" "}
          <input value={name} onChange={(e) => setName(e.target.value)} pattern="[A-Za-z0-9_.\-]{1,100}" required placeholder="load-1" />
        </label>
        <label>
          Role{" "}
          <select value={role} onChange={(e) => setRole(e.target.value as AgentCredentialRole)}>
            <option value="load">load agent</option>
            <option value="observe">observer (on the server under test)</option>
          </select>
        </label>
        <button type="submit" className="btn primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create credential"}
        </button>
      </form>
      {create.isError && <p className="error-text">{create.error.message}</p>}
      {issued && (
        <div className="share-created">
          <label>
            <span className="small">Credential for {issued.agent} (shown this once)</span>
            <input readOnly value={issued.secret} className="mono" data-testid="agent-secret" onFocus={(e) => e.target.select()} />
          </label>
          <p className="small">
            On the {issued.role === "observe" ? "server under test (root or CAP_PERFMON)" : "load machine"}:{" "}
            <code>
              KB_AGENT_TOKEN=… kneeboard agent{issued.role === "observe" ? " --observe" : ""} --name {issued.agent} --url{" "}
              {window.location.origin}
            </code>
          </p>
        </div>
      )}
      {list.isPending ? (
        <Loading what="Loading credentials" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => list.refetch()} what="the agent credentials" />
      ) : list.data.length === 0 ? (
        <p className="muted">No agent credentials yet.</p>
      ) : (
        <Table columns={["Agent", "Role", "Starts with", "Made by", "Last used"]} actions="Revoke" label="Agent credentials">
          <tbody>
            {list.data.map((c) => (
              <tr key={c.id}>
                <td>{c.agent}</td>
                <td>{c.role === "observe" ? "observer" : "load"}</td>
                <td className="mono">{c.prefix}…</td>
                <td>
                  {c.created_by}, {fmtDateTime(c.created_at)}
                </td>
                <td>{c.last_used_at ? fmtDateTime(c.last_used_at) : "never"}</td>
                <td>
                  <button type="button" className="btn small" onClick={() => revoke.mutate(c.id)} disabled={revoke.isPending}>
                    Revoke<span className="sr-only"> the credential of {c.agent}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {revoke.isError && <p className="error-text">{revoke.error.message}</p>}
    </section>
  );
}
