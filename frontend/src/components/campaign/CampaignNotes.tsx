import { useState } from "react";
import { useSaveCampaignNotes } from "../../api/campaigns";
import { errorsOf } from "../../api/errors";
import type { CampaignOut } from "../../api/types";
import Field from "../common/Field";

export const NOTES_MAX = 10_000;

/** The campaign's free-text notes: shown as written, edited in place (PATCH), the API's 422 beside the field. */
export default function CampaignNotes({ campaign }: { campaign: Pick<CampaignOut, "id" | "notes"> }) {
  const save = useSaveCampaignNotes(campaign.id);
  const [draft, setDraft] = useState<string | null>(null); // null: not editing
  const notes = campaign.notes ?? "";
  // a 422 names `notes`; anything else (404, network) lands on "": both show beside the field
  const messages = Object.values(errorsOf(save.error)).flat();

  const edit = () => {
    save.reset();
    setDraft(notes);
  };

  return (
    <section className="card" aria-label="Notes">
      <div className="section-head">
        <h2>Notes</h2>
        {draft == null && (
          <button type="button" className="btn small" onClick={edit}>
            Edit
          </button>
        )}
      </div>
      {draft == null ? (
        notes ? (
          <p className="notes" data-testid="campaign-notes" style={{ whiteSpace: "pre-wrap" }}>
            {notes}
          </p>
        ) : (
          <p className="muted" data-testid="campaign-notes">
            No notes.
          </p>
        )
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(draft, { onSuccess: () => setDraft(null) });
          }}
        >
          <Field label="Notes" errors={messages} hint={`${draft.length.toLocaleString()} / ${NOTES_MAX.toLocaleString()} characters`}>
            <textarea name="notes" rows={5} value={draft} autoFocus onChange={(e) => setDraft(e.target.value)} />
          </Field>
          <div className="actions">
            <button type="submit" className="btn primary small" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save"}
            </button>
            <button type="button" className="btn small" disabled={save.isPending} onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
