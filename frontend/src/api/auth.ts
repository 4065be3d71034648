// The signed-in user, login and logout, and the audit log (admins).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import type { components } from "./schema";

export type Me = components["schemas"]["Me"];
export type AuditPage = components["schemas"]["AuditPage"];
export type AuditFilters = { actor?: string; kind?: string; limit: number; offset: number };

export const authKeys = {
  me: ["auth", "me"] as const,
  audit: (filters: AuditFilters) => ["audit", filters] as const,
};

/** The current user (a 401 sends the browser to the login page, unless a login has since given this query up). */
export function useMe() {
  return useQuery({
    queryKey: authKeys.me,
    staleTime: 60_000,
    retry: false,
    queryFn: async ({ signal }) => {
      const result = await api.GET("/api/v1/auth/me", { signal });
      signal.throwIfAborted();
      return unwrap(result) as Me;
    },
  });
}

/** Sign in with a username and password; the answer sets the session cookie. A /auth/me still in flight was
 * asked before the login: it is given up, so its late 401 cannot send the now signed-in user to the login page. */
export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: { username: string; password: string }) => unwrap(await api.POST("/api/v1/auth/login", { body })) as Me,
    onSuccess: async (me) => {
      await qc.cancelQueries({ queryKey: authKeys.me });
      qc.setQueryData(authKeys.me, me);
    },
  });
}

/** End the session and forget every cached answer. */
export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { response } = await api.POST("/api/v1/auth/logout");
      if (!response.ok && response.status !== 401) throw new Error(`HTTP ${response.status}`);
    },
    onSuccess: () => qc.clear(),
  });
}

/** A page of the audit log, newest first. */
export function useAudit(filters: AuditFilters) {
  return useQuery({
    queryKey: authKeys.audit(filters),
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET("/api/v1/audit", {
          signal,
          params: { query: { limit: filters.limit, offset: filters.offset, actor: filters.actor || undefined, kind: filters.kind || undefined } },
        }),
      ) as AuditPage,
  });
}
