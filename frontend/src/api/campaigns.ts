import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { API_BASE, api, readJson, unwrap } from "./client";
import { keys } from "./keys";
import { isActive, type CampaignOut, type CampaignPage, type Plan } from "./types";

/** The orders the campaign list can be in. */
export const CAMPAIGN_SORTS = ["newest", "oldest", "name"] as const;
export type CampaignSort = (typeof CAMPAIGN_SORTS)[number];

export interface CampaignFilters {
  status?: string;
  target_id?: number;
  tool?: string;
  tag?: string;
  q?: string;
  /** true lists the archived campaigns instead of the others */
  archived?: boolean;
  /** newest first (the API's default), oldest first, or by name */
  sort?: CampaignSort;
  limit: number;
  offset: number;
}

export function useCampaigns(filters: CampaignFilters) {
  return useQuery({
    queryKey: keys.campaignList(filters),
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/api/v1/campaigns", { params: { query: filters }, signal })) as CampaignPage,
    // keep the list fresh while something on it is still running
    refetchInterval: (q) => (q.state.data?.items.some((c) => isActive(c.status)) ? 3000 : false),
  });
}

/** The page after `cursor` (a page's next_cursor): "load more" walks the history by keyset, cheap at any depth. */
export async function fetchCampaignsAfter(filters: CampaignFilters, cursor: string): Promise<CampaignPage> {
  const query = { ...filters, offset: undefined, cursor };
  return unwrap(await api.GET("/api/v1/campaigns", { params: { query } })) as CampaignPage;
}

export function useCampaign(id: number) {
  return useQuery({
    queryKey: keys.campaign(id),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET("/api/v1/campaigns/{campaign_id}", { params: { path: { campaign_id: id } }, signal })) as CampaignOut,
    // SSE pushes progress; this slow poll is the fallback if the stream drops
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? 5000 : false),
  });
}

export function useLaunchCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: { plan_id: number; name?: string; tags?: string[] }) =>
      unwrap(await api.POST("/api/v1/campaigns", { body })) as CampaignOut,
    onSuccess: (c) => {
      qc.setQueryData(keys.campaign(c.id), c);
      qc.invalidateQueries({ queryKey: keys.campaigns, exact: false, refetchType: "none" });
    },
  });
}

export function useCancelCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      unwrap(await api.POST("/api/v1/campaigns/{campaign_id}/cancel", { params: { path: { campaign_id: id } } })) as CampaignOut,
    onSuccess: (c) => {
      qc.setQueryData(keys.campaign(c.id), c);
      qc.invalidateQueries({ queryKey: keys.campaignPoints(c.id) });
    },
  });
}

/** Resume a crashed or cancelled campaign: its points that did not complete run again, on the same campaign (409 when it cannot). */
export function useResumeCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      unwrap(await api.POST("/api/v1/campaigns/{campaign_id}/resume", { params: { path: { campaign_id: id } } })) as CampaignOut,
    onSuccess: (c) => {
      qc.setQueryData(keys.campaign(c.id), c);
      qc.invalidateQueries({ queryKey: keys.campaignPoints(c.id) });
      qc.invalidateQueries({ queryKey: keys.campaignLists });
    },
  });
}

/** Run a campaign again: a new queued campaign with the same frozen plan, target and agent (202; 409 for an imported one). */
export function useRerunCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      unwrap(await api.POST("/api/v1/campaigns/{campaign_id}/rerun", { params: { path: { campaign_id: id } } })) as CampaignOut,
    onSuccess: (c) => {
      qc.setQueryData(keys.campaign(c.id), c);
      qc.invalidateQueries({ queryKey: keys.campaignLists });
    },
  });
}

/** Archive a campaign (hidden from the default list) or bring it back. */
export function useArchiveCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, archived }: { id: number; archived: boolean }) =>
      unwrap(await api.PATCH("/api/v1/campaigns/{campaign_id}", { params: { path: { campaign_id: id } }, body: { archived } })) as CampaignOut,
    onSuccess: (c) => {
      qc.setQueryData(keys.campaign(c.id), c);
      qc.invalidateQueries({ queryKey: keys.campaignLists });
    },
  });
}

/** Save a campaign's notes (≤ 10,000 characters; a 422 names `notes`). */
export function useSaveCampaignNotes(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (notes: string) =>
      unwrap(await api.PATCH("/api/v1/campaigns/{campaign_id}", { params: { path: { campaign_id: id } }, body: { notes } })) as CampaignOut,
    onSuccess: (c) => {
      qc.setQueryData(keys.campaign(c.id), c);
      qc.invalidateQueries({ queryKey: keys.campaign(c.id), exact: true });
      qc.invalidateQueries({ queryKey: keys.campaignLists, refetchType: "none" });
    },
  });
}

/**
 * Pin (or, with null, unpin) the completed campaign a plan's reports compare against: PUT /plans/{plan_id}/baseline.
 * A 422 names campaign_id when it is not a completed campaign of the plan's tool. Every campaign's
 * `baseline_campaign_id` may change: the one shown (`campaignId`) refetches, the others are marked stale.
 */
export function usePinBaseline(planId: number, campaignId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (campaign_id: number | null) =>
      unwrap(await api.PUT("/api/v1/plans/{plan_id}/baseline", { params: { path: { plan_id: planId } }, body: { campaign_id } })) as Plan,
    onSuccess: (plan) => {
      qc.setQueryData(keys.plan(plan.id), plan);
      qc.invalidateQueries({ queryKey: keys.campaign(campaignId), exact: true });
      qc.invalidateQueries({ queryKey: keys.campaigns, exact: false, refetchType: "none" });
    },
  });
}

/** Delete a campaign that is not active, with its points and samples; its cached queries go with it. */
export function useDeleteCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      unwrap(await api.DELETE("/api/v1/campaigns/{campaign_id}", { params: { path: { campaign_id: id } } }));
      return id;
    },
    onSuccess: (id) => {
      qc.removeQueries({ queryKey: keys.campaign(id) }); // and its points (a prefix)
      qc.invalidateQueries({ queryKey: keys.campaignLists });
    },
  });
}

export const exportUrl = (id: number, fmt: "csv" | "json" | "html" | "md.zip") => `${API_BASE}/campaigns/${id}/export.${fmt}`;
export const eventsUrl = (id: number) => `${API_BASE}/campaigns/${id}/events`;

export type Thresholds = import("./schema").components["schemas"]["Thresholds"];

/** Recompute a campaign's analysis with the user's knee rule and SLA latencies. */
export function useReanalyse(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: Thresholds) =>
      unwrap(await api.POST("/api/v1/campaigns/{campaign_id}/analysis", { params: { path: { campaign_id: id } }, body })) as CampaignOut,
    onSuccess: (c) => qc.setQueryData(keys.campaign(c.id), c),
  });
}

export interface ImportForm {
  files: File[];
  name?: string;
  target_id?: number;
}

/**
 * POST /campaigns/import (multipart: one or more `file`, optional `name`, `target_id`) → 201 with the campaign.
 * A malformed file is a 422 whose detail[0].msg names the file, line and column.
 */
export async function importCampaign(form: ImportForm): Promise<CampaignOut> {
  const body = new FormData();
  for (const f of form.files) body.append("file", f, f.name);
  if (form.name?.trim()) body.append("name", form.name.trim());
  if (form.target_id != null) body.append("target_id", String(form.target_id));
  const res = await fetch(`${API_BASE}/campaigns/import`, { method: "POST", body, headers: { accept: "application/json" } });
  return readJson<CampaignOut>(res);
}

export function useImportCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: importCampaign,
    onSuccess: (c) => {
      qc.setQueryData(keys.campaign(c.id), c);
      qc.invalidateQueries({ queryKey: keys.campaigns, exact: false });
    },
  });
}
