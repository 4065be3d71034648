import { useEffect, useState, type FormEvent } from "react";
import { useTargets } from "../../api/targets";
import { CAMPAIGN_STATUSES, TOOLS } from "../../api/types";

export interface FilterValues {
  status: string;
  target_id: string;
  tool: string;
  tag: string;
  q: string;
}

/** Filters for the campaign history; text fields apply on Enter, selects at once. */
export default function CampaignFilters({ values, onChange }: { values: FilterValues; onChange: (v: Partial<FilterValues>) => void }) {
  const targets = useTargets();
  const [q, setQ] = useState(values.q);
  const [tag, setTag] = useState(values.tag);
  useEffect(() => setQ(values.q), [values.q]);
  useEffect(() => setTag(values.tag), [values.tag]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange({ q: q.trim(), tag: tag.trim() });
  };
  const any = Object.values(values).some(Boolean);
  return (
    <form className="filters" onSubmit={submit} role="search" aria-label="Filter campaigns">
      <label>
        <span>Search</span>
        <input type="search" name="q" placeholder="name, notes…" value={q} onChange={(e) => setQ(e.target.value)} onBlur={() => q !== values.q && onChange({ q: q.trim() })} />
      </label>
      <label>
        <span>Target</span>
        <select name="target_id" value={values.target_id} onChange={(e) => onChange({ target_id: e.target.value })}>
          <option value="">all targets</option>
          {targets.data?.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Tool</span>
        <select name="tool" value={values.tool} onChange={(e) => onChange({ tool: e.target.value })}>
          <option value="">all tools</option>
          {TOOLS.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        <span>Status</span>
        <select name="status" value={values.status} onChange={(e) => onChange({ status: e.target.value })}>
          <option value="">any status</option>
          {CAMPAIGN_STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        <span>Tag</span>
        <input name="tag" placeholder="e.g. nic-queues" value={tag} onChange={(e) => setTag(e.target.value)} onBlur={() => tag !== values.tag && onChange({ tag: tag.trim() })} />
      </label>
      <button type="submit" className="btn">
        Apply
      </button>
      {any && (
        <button type="button" className="btn link" onClick={() => onChange({ status: "", target_id: "", tool: "", tag: "", q: "" })}>
          Clear
        </button>
      )}
    </form>
  );
}
