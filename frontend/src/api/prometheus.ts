// A team's Prometheus servers (admins register them; nobody reads a credential back) and their allow-list.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import { useDropFromList, usePutInList } from "./query";
import type { PrometheusAllowList, PrometheusServer, PrometheusServerCreate, PrometheusServerUpdate } from "./types";

/** Every registered Prometheus (GET /prometheus): its auth kind and user, never its credential. */
export function usePrometheusServers() {
  return useQuery({
    queryKey: keys.prometheusServers,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/prometheus", { signal })) as PrometheusServer[],
  });
}

export function useCreatePrometheusServer() {
  return usePutInList(keys.prometheusServers, async (body: PrometheusServerCreate) =>
    unwrap(await api.POST("/api/v1/prometheus", { body })) as PrometheusServer);
}

export function useUpdatePrometheusServer() {
  return usePutInList(
    keys.prometheusServers,
    async ({ id, body }: { id: number; body: PrometheusServerUpdate }) =>
      unwrap(await api.PATCH("/api/v1/prometheus/{server_id}", { params: { path: { server_id: id } }, body })) as PrometheusServer,
  );
}

export function useDeletePrometheusServer() {
  return useDropFromList(keys.prometheusServers, async (id) =>
    unwrap(await api.DELETE("/api/v1/prometheus/{server_id}", { params: { path: { server_id: id } } })));
}

/** Where a Prometheus may be (GET /policy/prometheus): its own list, neither the target policy nor the webhooks'. */
export function usePrometheusAllowList() {
  return useQuery({
    queryKey: keys.prometheusAllowList,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/policy/prometheus", { signal })) as PrometheusAllowList,
  });
}

export function usePutPrometheusAllowList() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: Pick<PrometheusAllowList, "networks" | "hosts">) => unwrap(await api.PUT("/api/v1/policy/prometheus", { body })) as PrometheusAllowList,
    onSuccess: (data) => qc.setQueryData(keys.prometheusAllowList, data),
  });
}
