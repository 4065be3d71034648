import { useState } from "react";
import { useAudit } from "../api/auth";
import PageHead from "../components/common/PageHead";
import { QueryView } from "../components/common/States";
import Table from "../components/common/Table";
import { fmtDateTime } from "../format";

const PAGE = 50;

/** The audit log (admins): who changed what and when, from where; newest first. */
export default function AuditPage() {
  const [actor, setActor] = useState("");
  const [kind, setKind] = useState("");
  const [offset, setOffset] = useState(0);
  const query = useAudit({ actor: actor.trim(), kind: kind.trim(), limit: PAGE, offset });
  const total = query.data?.total ?? 0;
  return (
    <>
      <PageHead title="Audit log" note={<p className="muted small">Every change of state, newest first.</p>} />
      <div className="filters">
        <label>
          Actor <input name="actor" value={actor} onChange={(e) => { setActor(e.target.value); setOffset(0); }} />
        </label>
        <label>
          Kind <input name="kind" value={kind} placeholder="target, plan, campaign, user…" onChange={(e) => { setKind(e.target.value); setOffset(0); }} />
        </label>
      </div>
      <QueryView query={query} loading="Loading the audit log" empty="No entries." isEmpty={(d) => d.items.length === 0}>
        {(page) => (
          <Table columns={["When", "Actor", "Action", "Kind", "Id", "Name", "Source"]} data-testid="audit-table">
            {page.items.map((e) => (
              <tr key={e.id}>
                <td>{fmtDateTime(e.at)}</td>
                <td>{e.actor}</td>
                <td>{e.action}</td>
                <td>{e.kind}</td>
                <td>{e.obj_id ?? ""}</td>
                <td>{e.name ?? ""}</td>
                <td className="mono">{e.source ?? ""}</td>
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
      <div className="pager">
        <button type="button" className="btn small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          Newer
        </button>
        <span className="muted small">
          {total ? `${offset + 1}–${Math.min(offset + PAGE, total)} of ${total}` : ""}
        </span>
        <button type="button" className="btn small" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
          Older
        </button>
      </div>
    </>
  );
}
