import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useDeleteCampaign, useResumeCampaign } from "../../api/campaigns";
import { isActive, isResumable, type CampaignOut } from "../../api/types";
import ConfirmDialog from "../common/ConfirmDialog";
import DeleteDialog from "../common/DeleteDialog";
import ArchiveButton from "./ArchiveButton";

type Stored = Pick<CampaignOut, "id" | "name" | "status" | "attempt" | "archived" | "progress" | "summary">;

/** The report's actions on a stored campaign: resume a crashed or cancelled one, archive or bring it back, delete it when not active. */
export default function CampaignActions({ campaign }: { campaign: Stored }) {
  const navigate = useNavigate();
  const resume = useResumeCampaign();
  const del = useDeleteCampaign();
  const [dialog, setDialog] = useState<"resume" | "delete" | null>(null);
  const close = () => setDialog(null);
  const active = isActive(campaign.status);
  const kept = campaign.summary.points_completed;
  const redo = Math.max(0, campaign.progress.total - kept);
  // after a delete the report is gone: back to the list
  const deleteAndLeave = {
    ...del,
    mutate: (id: number, opts: { onSuccess: () => void }) => del.mutate(id, { onSuccess: () => (opts.onSuccess(), navigate("/campaigns")) }),
  };

  return (
    <>
      {isResumable(campaign.status) && (
        <button type="button" className="btn primary" onClick={() => (resume.reset(), setDialog("resume"))}>
          Resume
        </button>
      )}
      <ArchiveButton campaign={campaign} />
      <button
        type="button"
        className="btn danger-outline"
        disabled={active}
        title={active ? "an active campaign cannot be deleted: cancel it first" : undefined}
        onClick={() => (del.reset(), setDialog("delete"))}
      >
        Delete
      </button>

      <ConfirmDialog
        open={dialog === "resume"}
        title="Resume this campaign?"
        confirmLabel="Resume"
        cancelLabel="Not now"
        busy={resume.isPending}
        onClose={close}
        onConfirm={() => resume.mutate(campaign.id, { onSuccess: close })}
      >
        <p data-testid="resume-count">
          {redo} point{redo === 1 ? "" : "s"} that did not complete will run again with the same frozen plan, as attempt {campaign.attempt + 1}.
          {kept > 0 ? ` The ${kept} completed point${kept === 1 ? "" : "s"} and ${kept === 1 ? "its" : "their"} samples are kept.` : ""}
        </p>
        {resume.isError && (
          <p className="error-text" role="alert">
            {resume.error.message}
          </p>
        )}
      </ConfirmDialog>
      <DeleteDialog noun="campaign" item={dialog === "delete" ? campaign : null} del={deleteAndLeave} onClose={close}>
        <p>Its points, samples and analysis are deleted for good, and links shared to it stop working.</p>
      </DeleteDialog>
    </>
  );
}
