import { useEffect, useMemo, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { fetchCampaignsAfter, useCampaigns, type CampaignFilters as Filters } from "../api/campaigns";
import type { CampaignBrief } from "../api/types";
import CampaignFilters, { type FilterValues } from "../components/campaigns/CampaignFilters";
import CampaignTable from "../components/campaigns/CampaignTable";
import ImportDialog from "../components/campaigns/ImportDialog";
import PageHead from "../components/common/PageHead";
import { QueryView } from "../components/common/States";

const PAGE = 20;
const FILTER_KEYS: (keyof FilterValues)[] = ["status", "target_id", "tool", "tag", "q", "archived"];

export default function CampaignsPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const values: FilterValues = {
    status: params.get("status") ?? "",
    target_id: params.get("target_id") ?? "",
    tool: params.get("tool") ?? "",
    tag: params.get("tag") ?? "",
    q: params.get("q") ?? "",
    archived: params.get("archived") ?? "",
  };
  const page = Math.max(1, Number(params.get("page")) || 1);
  // the compare selection lives in the URL (?c=1&c=2) and in local state, so a checkbox answers at once
  const urlSelected = params.getAll("c").join(",");
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<number[]>(() => params.getAll("c").map(Number).filter(Number.isFinite));
  useEffect(() => setSelected(urlSelected ? urlSelected.split(",").map(Number).filter(Number.isFinite) : []), [urlSelected]);
  const queryKey = FILTER_KEYS.map((k) => params.get(k) ?? "").join("|") + `|${page}`;

  const filters: Filters = useMemo(
    () => ({
      status: values.status || undefined,
      target_id: values.target_id ? Number(values.target_id) : undefined,
      tool: values.tool || undefined,
      tag: values.tag || undefined,
      q: values.q || undefined,
      archived: values.archived ? true : undefined,
      limit: PAGE,
      offset: (page - 1) * PAGE,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryKey],
  );
  const list = useCampaigns(filters);
  // "load more" appends older pages by cursor below the current page; a new filter or page starts over
  const [more, setMore] = useState<{ items: CampaignBrief[]; cursor: string | null } | null>(null);
  useEffect(() => setMore(null), [queryKey]);
  const nextCursor = more ? more.cursor : (list.data?.next_cursor ?? null);
  const loadMore = async () => {
    if (!nextCursor) return;
    const next = await fetchCampaignsAfter(filters, nextCursor);
    setMore((m) => ({ items: [...(m?.items ?? []), ...next.items], cursor: next.next_cursor ?? null }));
  };

  const update = (mut: (p: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    mut(next);
    setParams(next, { replace: false });
  };
  const onFilter = (v: Partial<FilterValues>) =>
    update((p) => {
      for (const k of FILTER_KEYS) if (k in v) (v[k] ? p.set(k, v[k]!) : p.delete(k));
      p.delete("page");
    });
  const toggle = (id: number) => {
    const next = selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id];
    setSelected(next);
    const p = new URLSearchParams(params);
    p.delete("c");
    next.forEach((x) => p.append("c", String(x)));
    setParams(p, { replace: true });
  };
  const goPage = (n: number) => update((p) => (n <= 1 ? p.delete("page") : p.set("page", String(n))));

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE));

  return (
    <div className="page campaigns-page">
      <PageHead title="Campaigns">
        <button type="button" className="btn" onClick={() => setImporting(true)}>
          Import…
        </button>
        <Link to="/plans/new" className="btn primary">
          New plan
        </Link>
      </PageHead>
      <CampaignFilters values={values} onChange={onFilter} />
      <div className="compare-bar" aria-live="polite">
        {selected.length === 0 ? (
          <span className="muted">Tick two or more campaigns to compare them side by side.</span>
        ) : (
          <>
            <span>
              {selected.length} selected: {selected.map((id) => `#${id}`).join(", ")}
            </span>
            <button
              type="button"
              className="btn primary"
              disabled={selected.length < 2}
              onClick={() => navigate(`/compare?${selected.map((id) => `c=${id}`).join("&")}`)}
            >
              Compare {selected.length >= 2 ? selected.length : ""}
            </button>
            <button type="button" className="btn link" onClick={() => {
                setSelected([]);
                update((p) => p.delete("c"));
              }}>
              Clear selection
            </button>
          </>
        )}
      </div>
      <section className="card flush">
        <QueryView
          query={list}
          loading="Loading campaigns"
          isEmpty={(data) => data.items.length === 0}
          empty={
            FILTER_KEYS.some((k) => values[k]) ? (
              "No campaign matches these filters."
            ) : (
              <>
                No campaigns yet. <Link to="/plans/new">Build a plan</Link> and launch it, or{" "}
                <button type="button" className="btn link inline" onClick={() => setImporting(true)}>
                  import results
                </button>{" "}
                you already have.
              </>
            )
          }
        >
          {(data) => <CampaignTable items={[...data.items, ...(more?.items ?? [])]} selected={selected} onToggle={toggle} />}
        </QueryView>
      </section>
      {importing && <ImportDialog open onClose={() => setImporting(false)} onImported={(c) => navigate(`/campaigns/${c.id}`)} />}
      {nextCursor && (
        <button type="button" className="btn small load-more" onClick={loadMore}>
          Load {PAGE} more
        </button>
      )}
      {total > PAGE && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="btn small" disabled={page <= 1} onClick={() => goPage(page - 1)}>
            ← Newer
          </button>
          <span>
            Page {page} of {pages} · {total} campaigns
          </span>
          <button type="button" className="btn small" disabled={page >= pages} onClick={() => goPage(page + 1)}>
            Older →
          </button>
        </nav>
      )}
    </div>
  );
}
