import { useRef, useState, type FormEvent } from "react";
import { useImportCampaign } from "../../api/campaigns";
import { errorsOf, messagesFor } from "../../api/errors";
import { useTargets } from "../../api/targets";
import type { CampaignOut } from "../../api/types";
import Field, { FormErrors } from "../common/Field";
import { Backdrop, useModal } from "../common/Modal";

/**
 * Import finished results as a campaign: the seed script's CSV, raw dnsperf outputs (one file per
 * point) or a Kneeboard JSON export. The API's 422 names the file, line and column; it is shown
 * beside the file input.
 */
export default function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: (c: CampaignOut) => void }) {
  const targets = useTargets();
  const imp = useImportCampaign();
  const [files, setFiles] = useState<File[]>([]);
  const [name, setName] = useState("");
  const [targetId, setTargetId] = useState("");
  const fileRef = useRef<HTMLInputElement>(null);

  useModal(open, onClose, fileRef);

  if (!open) return null;

  const errors = imp.isError ? errorsOf(imp.error) : {};
  const fileErrors = messagesFor(errors, "file");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!files.length) return;
    imp.mutate({ files, name: name || undefined, target_id: targetId ? Number(targetId) : undefined }, { onSuccess: onImported });
  };

  return (
    <Backdrop onClose={onClose}>
      <form className="modal import-dialog" role="dialog" aria-modal="true" aria-labelledby="import-title" onSubmit={submit} noValidate>
        <h2 id="import-title">Import results</h2>
        <p className="muted small">
          The seed script's CSV (<span className="mono">Test_Type,Concurrency,Target_QPS,Actual_QPS,Avg_Latency_ms,StdDev_ms</span>), raw dnsperf
          output files (one per point), or a Kneeboard JSON export. The campaign is analysed as if it had run here; nothing is stored if a file is
          malformed.
        </p>
        <Field label="Files" errors={fileErrors} hint={files.length ? files.map((f) => f.name).join(", ") : "one or more files"}>
          <input
            ref={fileRef}
            type="file"
            name="file"
            multiple
            accept=".csv,.json,.txt,.out,.log,text/*,application/json"
            onChange={(e) => {
              imp.reset();
              setFiles(Array.from(e.target.files ?? []));
            }}
          />
        </Field>
        <div className="grid-2">
          <Field label="Name" errors={messagesFor(errors, "name")} hint="optional; default from the file">
            <input name="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
          </Field>
          <Field label="Target" errors={messagesFor(errors, "target_id")} hint="optional: the system these results are of">
            <select name="target_id" value={targetId} onChange={(e) => setTargetId(e.target.value)}>
              <option value="">— none —</option>
              {(targets.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({t.kind}, {t.host}:{t.port})
                </option>
              ))}
            </select>
          </Field>
        </div>
        <FormErrors errors={errors[""]} />
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={!files.length || imp.isPending}>
            {imp.isPending ? "Importing…" : "Import"}
          </button>
        </div>
      </form>
    </Backdrop>
  );
}
