import { useState, type FormEvent } from "react";
import { errorsOf, messagesFor } from "../api/errors";
import { BUILTIN_PROFILE, useCreateProfile, useDeleteProfile, useProfiles, type Profile } from "../api/profiles";
import DeleteDialog, { DeleteButton } from "../components/common/DeleteDialog";
import Field, { FormErrors } from "../components/common/Field";
import PageHead from "../components/common/PageHead";
import { QueryView } from "../components/common/States";
import Table from "../components/common/Table";
import { fmtDateTime } from "../format";

/** Parse pasted or loaded JSON; an error names line and column like the API does for imports. */
export function parseProfileJson(text: string): { document?: Record<string, unknown>; error?: string } {
  if (!text.trim()) return { error: "paste the profile's JSON or choose a file" };
  try {
    const doc = JSON.parse(text) as unknown;
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) return { error: "a profile is a JSON object ({ … })" };
    return { document: doc as Record<string, unknown> };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(msg);
    if (pos) {
      const before = text.slice(0, Number(pos[1]));
      const line = before.split("\n").length;
      const col = before.length - before.lastIndexOf("\n");
      return { error: `not JSON: line ${line}, column ${col}: ${msg.replace(/ in JSON at position \d+.*$/, "")}` };
    }
    return { error: `not JSON: ${msg}` };
  }
}

function UploadForm() {
  const create = useCreateProfile();
  const [name, setName] = useState("");
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [fileKey, setFileKey] = useState(0); // a new key empties the file input after an upload
  const errors = create.isError ? errorsOf(create.error) : {};
  const docErrors = localError ? [localError] : messagesFor(errors, "document");

  const onFile = async (f: File | undefined) => {
    create.reset();
    setLocalError(null);
    if (!f) return;
    setFileName(f.name);
    setText(await f.text());
    if (!name) setName(f.name.replace(/\.json$/i, "").replace(/[^A-Za-z0-9_.-]/g, "-").slice(0, 64));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const parsed = parseProfileJson(text);
    if (parsed.error) {
      create.reset();
      setLocalError(parsed.error);
      return;
    }
    setLocalError(null);
    create.mutate(
      { name: name.trim(), document: parsed.document! },
      {
        onSuccess: (p) => {
          setDone(`Profile “${p.name}” stored: ${p.summary}`);
          setName("");
          setText("");
          setFileName(null);
          setFileKey((k) => k + 1);
        },
      },
    );
  };
  return (
    <form className="card" aria-label="Upload profile" onSubmit={submit} noValidate>
      <h2>Upload a profile</h2>
      <p className="muted small">devsim checks the profile (framing, frames, handshake, acks) before it is stored; its message appears beside the document.</p>
      <Field label="Name" errors={messagesFor(errors, "name")} hint="letters, digits, . _ - (the plan's profile field uses it)">
        <input name="name" value={name} onChange={(e) => { create.reset(); setName(e.target.value); }} maxLength={64} />
      </Field>
      <Field label="JSON file" hint={fileName ? `loaded ${fileName}` : "or paste the JSON below"}>
        <input key={fileKey} type="file" name="profile-file" accept=".json,application/json" onChange={(e) => onFile(e.target.files?.[0])} />
      </Field>
      <Field label="Profile document (JSON)" errors={docErrors}>
        <textarea
          name="document"
          rows={10}
          className="mono"
          spellCheck={false}
          value={text}
          onChange={(e) => {
            create.reset();
            setLocalError(null);
            setText(e.target.value);
          }}
          placeholder='{"name": "…", "framing": {…}, "frames": {"login": {…}, "report": {…}}}'
        />
      </Field>
      <FormErrors errors={errors[""]} />
      {done && (
        <p className="ok-text small" role="status">
          {done}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="btn primary" disabled={create.isPending || !name.trim()}>
          {create.isPending ? "Checking…" : "Upload profile"}
        </button>
      </div>
    </form>
  );
}

export default function ProfilesPage() {
  const profiles = useProfiles();
  const del = useDeleteProfile();
  const [deleting, setDeleting] = useState<Profile | null>(null);
  const [open, setOpen] = useState<number | null>(null);

  return (
    <div className="page profiles-page">
      <PageHead
        title="Device profiles"
        note={
          <p className="muted">
            What devsim's virtual devices send: framing, the login and report frames, the handshake and acks. A devsim plan names one in its
            profile parameter.
          </p>
        }
      />
      <div className="two-col">
        <section className="card flush" aria-label="Profiles">
          <QueryView query={profiles} loading="Loading profiles">
            {(data) => (
              <Table columns={["Name", "Summary", "Uploaded"]} actions="Actions" data-testid="profiles-table">
                <tr className="builtin">
                  <td>
                    <strong className="mono">{BUILTIN_PROFILE}</strong> <span className="badge kind">built-in</span>
                  </td>
                  <td className="small">Single-light street-lamp controller of seed 004: 42-byte login, 58-byte report, CRC-16/MODBUS. Always available.</td>
                  <td className="muted small">—</td>
                  <td />
                </tr>
                {data.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <strong className="mono">{p.name}</strong>
                    </td>
                    <td className="small">
                      {p.summary}
                      {open === p.id && <pre className="raw profile-doc">{JSON.stringify(p.document, null, 2)}</pre>}
                    </td>
                    <td className="muted small">{fmtDateTime(p.created_at)}</td>
                    <td className="row-actions">
                      <button type="button" className="btn small" aria-expanded={open === p.id} onClick={() => setOpen(open === p.id ? null : p.id)}>
                        {open === p.id ? "Hide" : "JSON"}
                      </button>
                      <DeleteButton label={`Delete profile ${p.name}`} onClick={() => { del.reset(); setDeleting(p); }} />
                    </td>
                  </tr>
                ))}
                {data.length === 0 && (
                  <tr>
                    <td colSpan={4} className="muted small">
                      No uploaded profiles yet: plans can use the built-in one, or upload another with the form.
                    </td>
                  </tr>
                )}
              </Table>
            )}
          </QueryView>
        </section>
        <UploadForm />
      </div>
      <DeleteDialog noun="profile" item={deleting} del={del} onClose={() => setDeleting(null)}>
        <p>Plans that name it are refused until they use another profile.</p>
      </DeleteDialog>
    </div>
  );
}
