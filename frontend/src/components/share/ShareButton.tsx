import { useState } from "react";
import ShareDialog from "./ShareDialog";

/** "Share": opens the dialog that creates, lists and revokes read-only links to these campaigns (one: its report; more: a comparison). */
export default function ShareButton({ campaignIds, disabledWhy }: { campaignIds: number[]; disabledWhy?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)} disabled={!!disabledWhy} title={disabledWhy ?? "A read-only link that needs no login"}>
        Share
      </button>
      {open && <ShareDialog campaignIds={campaignIds} onClose={() => setOpen(false)} />}
    </>
  );
}
