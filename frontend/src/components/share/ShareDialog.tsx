import { useCallback, useRef, useState } from "react";
import { EXPIRY_CHOICES, useCreateShare, useRevokeShare, useShares, type ShareCreated } from "../../api/shares";
import { fmtDateTime } from "../../format";
import CopyLinkButton from "../common/CopyLinkButton";
import { Backdrop, useModal } from "../common/Modal";
import { ErrorState, Loading } from "../common/States";
import Table from "../common/Table";

/** Create a link (expiry choice), show it once with a copy button, list the links to the same campaigns and revoke them. */
export default function ShareDialog({ campaignIds, onClose }: { campaignIds: number[]; onClose: () => void }) {
  const [expiry, setExpiry] = useState(EXPIRY_CHOICES[2].seconds);
  const [created, setCreated] = useState<ShareCreated | null>(null);
  const create = useCreateShare(campaignIds);
  const revoke = useRevokeShare();
  const shares = useShares(campaignIds);
  const selectRef = useRef<HTMLSelectElement>(null);
  const close = useCallback(() => onClose(), [onClose]);
  useModal(true, close, selectRef);
  const what = campaignIds.length === 1 ? "this report" : `this comparison of ${campaignIds.length} campaigns`;

  return (
    <Backdrop onClose={close}>
      <div className="modal share-dialog" role="dialog" aria-modal="true" aria-labelledby="share-title">
        <h2 id="share-title">Share {what}</h2>
        <p className="muted small">Anyone with the link sees a read-only copy, with no login, until it expires or is revoked.</p>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(expiry, { onSuccess: setCreated });
          }}
        >
          <label>
            Expires after{" "}
            <select ref={selectRef} value={expiry} onChange={(e) => setExpiry(Number(e.target.value))} aria-label="Expires after">
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.seconds} value={c.seconds}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create link"}
          </button>
        </form>
        {create.isError && <p className="error-text">{create.error.message}</p>}
        {created && (
          <div className="share-created">
            <label>
              <span className="small">Link (shown this once; expires {fmtDateTime(created.expires_at)})</span>
              <input readOnly value={created.url} data-testid="share-url" onFocus={(e) => e.target.select()} className="mono" />
            </label>
            <CopyLinkButton url={created.url} />
          </div>
        )}
        <h3>Links</h3>
        {shares.isPending ? (
          <Loading what="Loading links" />
        ) : shares.isError ? (
          <ErrorState error={shares.error} retry={() => shares.refetch()} what="the share links" />
        ) : shares.data.length === 0 ? (
          <p className="muted">No links yet.</p>
        ) : (
          <Table columns={["Shows", "By", "Expires"]} actions="Revoke" data-testid="share-list">
            {shares.data.map((s) => (
              <tr key={s.id}>
                <td>{s.campaign_names.join(" vs ")}</td>
                <td className="small">{s.created_by}</td>
                <td className="small">{s.expired ? <span className="error-text">expired</span> : fmtDateTime(s.expires_at)}</td>
                <td className="row-actions">
                  <button type="button" className="btn small danger" disabled={revoke.isPending} onClick={() => revoke.mutate(s.id)} aria-label={`Revoke link ${s.id}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
        {revoke.isError && <p className="error-text">{revoke.error.message}</p>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={close}>
            Close
          </button>
        </div>
      </div>
    </Backdrop>
  );
}
