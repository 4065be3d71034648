import type { CampaignOut } from "../../api/types";

/** When the load generator ran on the server's own host: says so, and which scheduler autogroup setting was in force. */
export default function HostSharingNotice({ campaign }: { campaign: Pick<CampaignOut, "host_sharing"> }) {
  const sharing = campaign.host_sharing;
  if (!sharing) return null;
  return (
    <div className="banner info" role="note" data-testid="host-sharing-note">
      <strong>Shared host.</strong> {sharing.note[0].toUpperCase() + sharing.note.slice(1)}.
    </div>
  );
}
