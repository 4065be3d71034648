import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { CAMPAIGN_SORTS, fetchCampaignsAfter, useCampaigns, type CampaignFilters as Filters, type CampaignSort } from "../api/campaigns";
import { keys } from "../api/keys";
import type { CampaignBrief } from "../api/types";
import CampaignFilters, { type FilterValues } from "../components/campaigns/CampaignFilters";
import CampaignTable from "../components/campaigns/CampaignTable";
import ImportDialog from "../components/campaigns/ImportDialog";
import PageHead from "../components/common/PageHead";
import { QueryView } from "../components/common/States";
import { param, useUrlState } from "../urlState";

const PAGE = 20;
const FILTER_KEYS: (keyof FilterValues)[] = ["status", "target_id", "tool", "tag", "q", "archived"];
/**
 * The list's view in the URL: filters, the order, the page, how many older pages "load more" appended (each walked by cursor), and
 * the campaigns ticked for comparison (?c=1&c=2). A pasted link shows the same rows.
 */
const VIEW = {
  status: param.str(),
  target_id: param.str(),
  tool: param.str(),
  tag: param.str(),
  q: param.str(),
  archived: param.str(),
  sort: param.oneOf(CAMPAIGN_SORTS, "newest"),
  page: param.int(1, 1),
  more: param.int(0, 0, 50),
  c: param.list(),
};

/** The `count` pages after `cursor`, walked one cursor at a time (what "load more" appended, restored from the URL). */
function useMorePages(filters: Filters, cursor: string | null | undefined, count: number) {
  return useQuery({
    queryKey: [...keys.campaignList(filters), "more", cursor, count],
    enabled: !!cursor && count > 0,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const items: CampaignBrief[] = [];
      let next: string | null = cursor ?? null;
      for (let i = 0; i < count && next; i++) {
        const page = await fetchCampaignsAfter(filters, next);
        items.push(...page.items);
        next = page.next_cursor ?? null;
      }
      return { items, cursor: next };
    },
  });
}

export default function CampaignsPage() {
  const [view, setView] = useUrlState(VIEW);
  const navigate = useNavigate();
  const values: FilterValues = { status: view.status, target_id: view.target_id, tool: view.tool, tag: view.tag, q: view.q, archived: view.archived };
  const page = view.page;
  const [importing, setImporting] = useState(false);
  // the selection lives in the URL and in local state, so a checkbox answers at once
  const urlSelected = view.c.join(",");
  const [selected, setSelected] = useState<number[]>(() => view.c.map(Number).filter(Number.isFinite));
  useEffect(() => setSelected(urlSelected ? urlSelected.split(",").map(Number).filter(Number.isFinite) : []), [urlSelected]);
  const queryKey = FILTER_KEYS.map((k) => values[k]).join("|") + `|${view.sort}|${page}`;

  const filters: Filters = useMemo(
    () => ({
      status: values.status || undefined,
      target_id: values.target_id ? Number(values.target_id) : undefined,
      tool: values.tool || undefined,
      tag: values.tag || undefined,
      q: values.q || undefined,
      archived: values.archived ? true : undefined,
      sort: view.sort === "newest" ? undefined : view.sort,
      limit: PAGE,
      offset: (page - 1) * PAGE,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryKey],
  );
  const list = useCampaigns(filters);
  // "load more" appends older pages by cursor below the current page; a new filter or page starts over
  const more = useMorePages(filters, list.data?.next_cursor, view.more);
  const nextCursor = view.more > 0 ? (more.data?.cursor ?? null) : (list.data?.next_cursor ?? null);
  const loadMore = () => nextCursor && setView({ more: view.more + 1 });

  const onFilter = (v: Partial<FilterValues>) => setView({ ...v, page: 1, more: 0 });
  const toggle = (id: number) => {
    const next = selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id];
    setSelected(next);
    // ticking is not a new view: it replaces the entry, so Back still walks filters and pages
    setView({ c: next.map(String) }, { replace: true });
  };
  const goPage = (n: number) => setView({ page: n, more: 0 });

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
      <label className="list-sort">
        <span>Sort</span>
        <select name="sort" value={view.sort} onChange={(e) => setView({ sort: e.target.value as CampaignSort, page: 1, more: 0 })}>
          <option value="newest">newest first</option>
          <option value="oldest">oldest first</option>
          <option value="name">by name</option>
        </select>
      </label>
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
                setView({ c: [] }, { replace: true });
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
          {(data) => <CampaignTable items={[...data.items, ...(view.more > 0 ? (more.data?.items ?? []) : [])]} selected={selected} onToggle={toggle} />}
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
