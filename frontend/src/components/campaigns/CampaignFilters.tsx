import { useEffect, useState, type FormEvent } from "react";
import { useTargets } from "../../api/targets";
import { CAMPAIGN_STATUSES } from "../../api/types";
import { loadTools } from "../../tools/catalog";
import { useTools } from "../../tools/useTools";

export interface FilterValues {
  status: string;
  target_id: string;
  tool: string;
  tag: string;
  q: string;
  /** "1" lists the archived campaigns instead of the others */
  archived: string;
}

/** A select that applies at once; the empty option (`any`) means no filter. */
function FilterSelect({
  label,
  name,
  value,
  any,
  options,
  onChange,
}: {
  label: string;
  name: keyof FilterValues;
  value: string;
  any: string;
  options: [value: string, label: string][];
  onChange: (v: Partial<FilterValues>) => void;
}) {
  return (
    <label>
      <span>{label}</span>
      <select name={name} value={value} onChange={(e) => onChange({ [name]: e.target.value })}>
        <option value="">{any}</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Filters for the campaign history; text fields apply on Enter, selects at once. */
export default function CampaignFilters({ values, onChange }: { values: FilterValues; onChange: (v: Partial<FilterValues>) => void }) {
  const tools = useTools();
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
      <FilterSelect label="Target" name="target_id" value={values.target_id} any="all targets" options={targets.data?.map((t) => [String(t.id), t.name]) ?? []} onChange={onChange} />
      <FilterSelect label="Tool" name="tool" value={values.tool} any="all tools" options={loadTools(tools.data).map((t) => [t.name, t.name])} onChange={onChange} />
      <FilterSelect label="Status" name="status" value={values.status} any="any status" options={CAMPAIGN_STATUSES.map((s) => [s, s])} onChange={onChange} />
      <label>
        <span>Tag</span>
        <input name="tag" placeholder="e.g. nic-queues" value={tag} onChange={(e) => setTag(e.target.value)} onBlur={() => tag !== values.tag && onChange({ tag: tag.trim() })} />
      </label>
      <label className="check">
        <input type="checkbox" name="archived" checked={!!values.archived} onChange={(e) => onChange({ archived: e.target.checked ? "1" : "" })} />
        <span>Show archived</span>
      </label>
      <button type="submit" className="btn">
        Apply
      </button>
      {any && (
        <button type="button" className="btn link" onClick={() => onChange({ status: "", target_id: "", tool: "", tag: "", q: "", archived: "" })}>
          Clear
        </button>
      )}
    </form>
  );
}
