import { useArchiveCampaign } from "../../api/campaigns";
import type { CampaignOut } from "../../api/types";

/** Archive a campaign (hidden from the default list) or bring it back, in place; a failure shows beside the button. */
export default function ArchiveButton({ campaign, small }: { campaign: Pick<CampaignOut, "id" | "archived">; small?: boolean }) {
  const archive = useArchiveCampaign();
  const label = campaign.archived ? "Unarchive" : "Archive";
  return (
    <>
      <button
        type="button"
        className={`btn${small ? " small" : ""}`}
        disabled={archive.isPending}
        aria-label={small ? `${label} campaign ${campaign.id}` : undefined}
        title={campaign.archived ? "show it in the campaign list again" : "hide it from the campaign list; nothing is deleted"}
        onClick={() => archive.mutate({ id: campaign.id, archived: !campaign.archived })}
      >
        {label}
      </button>
      {archive.isError && (
        <span className="error-text small" role="alert">
          {archive.error.message}
        </span>
      )}
    </>
  );
}
