import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import { useById } from "./query";
import type { Plan, PlanBody, PlanPreview, PlanTemplate } from "./types";

export function usePlans() {
  return useQuery({
    queryKey: keys.plans,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/plans", { signal })) as Plan[],
  });
}

export function usePlan(id: number | null) {
  return useById(keys.plan, id, async (plan_id, signal) => unwrap(await api.GET("/api/v1/plans/{plan_id}", { params: { path: { plan_id } }, signal })) as Plan);
}

export function useTemplates() {
  return useQuery({
    queryKey: keys.templates,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/plans/templates", { signal })) as PlanTemplate[],
  });
}

/** A template's quick look (every phase and variant, a few short points), fetched when the user asks for it. */
export function useQuickLook() {
  return useMutation({
    mutationFn: async (template_id: string) =>
      unwrap(await api.GET("/api/v1/plans/templates/{template_id}", { params: { path: { template_id }, query: { quick: true } } })) as PlanTemplate,
  });
}

/** The points a plan body expands to; `body` null disables the query. 422s come back as the error. */
export function usePlanPreview(body: PlanBody | null) {
  return useQuery({
    queryKey: keys.preview(body),
    enabled: body != null,
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      unwrap(await api.POST("/api/v1/plans/preview", { body: body!, signal })) as PlanPreview,
  });
}

export function useSavePlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number | null; body: PlanBody }) =>
      (id == null
        ? unwrap(await api.POST("/api/v1/plans", { body }))
        : unwrap(await api.PUT("/api/v1/plans/{plan_id}", { params: { path: { plan_id: id } }, body }))) as Plan,
    onSuccess: (plan) => {
      qc.setQueryData(keys.plan(plan.id), plan);
      qc.invalidateQueries({ queryKey: keys.plans, exact: true });
    },
  });
}

export function useDeletePlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      unwrap(await api.DELETE("/api/v1/plans/{plan_id}", { params: { path: { plan_id: id } } }));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.plans, exact: true }),
  });
}
