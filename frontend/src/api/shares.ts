// Share links: create, list and revoke them (signed in); read what one shows (GET /shared/{token}, no login).
import { createContext } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { components } from "./schema";
import { API_BASE, api, unwrap } from "./client";
import { keys } from "./keys";
import type { ToolInfo } from "../tools/catalog";

export type ShareOut = components["schemas"]["ShareOut"];
export type ShareCreated = components["schemas"]["ShareCreated"];
export type SharedReport = components["schemas"]["SharedReport"];

/** The lifetimes the Share dialog offers, in seconds. */
export const EXPIRY_CHOICES: { label: string; seconds: number }[] = [
  { label: "1 hour", seconds: 3_600 },
  { label: "1 day", seconds: 86_400 },
  { label: "7 days", seconds: 7 * 86_400 },
  { label: "30 days", seconds: 30 * 86_400 },
  { label: "90 days", seconds: 90 * 86_400 },
];

/** The share token of the page being shown (null on the signed-in pages): sample queries go through it. */
export const SharedTokenContext = createContext<string | null>(null);

/** Links naming every one of `campaignIds`, newest first (never their tokens). */
export function useShares(campaignIds: number[], enabled = true) {
  return useQuery({
    queryKey: keys.shares(campaignIds),
    enabled,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/shares", { params: { query: { campaign_id: campaignIds } }, signal })) as ShareOut[],
  });
}

/** Create a link to one campaign, or to a comparison of several (the first is the reference). */
export function useCreateShare(campaignIds: number[]) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (expires_in_s: number) =>
      (campaignIds.length === 1
        ? unwrap(await api.POST("/api/v1/campaigns/{campaign_id}/shares", { params: { path: { campaign_id: campaignIds[0] } }, body: { expires_in_s } }))
        : unwrap(await api.POST("/api/v1/shares", { body: { campaign_ids: campaignIds, expires_in_s } }))) as ShareCreated,
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.sharesAll }),
  });
}

/** Revoke a link at once. */
export function useRevokeShare() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (share_id: number) => unwrap(await api.DELETE("/api/v1/shares/{share_id}", { params: { path: { share_id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.sharesAll }),
  });
}

/** What a link shows; its tool descriptions prime the tools query (GET /tools needs a login). */
export function useShared(token: string) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: keys.shared(token),
    queryFn: async ({ signal }) => {
      const report = unwrap(await api.GET("/api/v1/shared/{token}", { params: { path: { token } }, signal })) as SharedReport;
      qc.setQueryData(keys.tools, report.tools as ToolInfo[]);
      return report;
    },
    staleTime: Infinity,
  });
}

/** A point's samples through a share link (only its campaigns' points). */
export async function sharedSamples(token: string, point_id: number, series: string | undefined, max_points: number, signal: AbortSignal) {
  return unwrap(
    await api.GET("/api/v1/shared/{token}/points/{point_id}/samples", { params: { path: { token, point_id }, query: { series, max_points } }, signal }),
  );
}

/** A point's latency histogram through a share link (only its campaigns' points). */
export async function sharedHistogram(token: string, point_id: number, window: "all" | "steady", signal: AbortSignal) {
  return unwrap(await api.GET("/api/v1/shared/{token}/points/{point_id}/histogram", { params: { path: { token, point_id }, query: { window } }, signal }));
}

/** The Share button's campaigns for the compare page's selectors; variants ("12@x") and fewer than two cannot be shared. */
export function comparisonShare(selectors: string[]): { campaignIds: number[]; disabledWhy?: string } {
  const ids = selectors.filter((s) => /^\d+$/.test(s)).map(Number);
  if (ids.length < selectors.length) return { campaignIds: ids, disabledWhy: "Only whole campaigns can be shared, not variants" };
  if (ids.length < 2) return { campaignIds: ids, disabledWhy: "Pick two or more campaigns to share a comparison" };
  return { campaignIds: ids };
}

/** What a link shows as one self-contained HTML file (public, like the link). */
export const sharedExportUrl = (token: string) => `${API_BASE}/shared/${encodeURIComponent(token)}/export.html`;
