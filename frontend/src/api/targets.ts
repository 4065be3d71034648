import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import type { Target, TargetCreate, TargetKind, TargetUpdate } from "./types";

export function useTargets() {
  return useQuery({
    queryKey: keys.targets,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/targets", { signal })) as Target[],
  });
}

/** Targets of one kind (GET /targets?kind=); filtered here too, in case an older API ignores the parameter. */
export function useTargetsOfKind(kind: TargetKind) {
  return useQuery({
    queryKey: keys.targetsOfKind(kind),
    queryFn: async ({ signal }) =>
      (unwrap(await api.GET("/api/v1/targets", { params: { query: { kind } }, signal })) as Target[]).filter((t) => t.kind === kind),
  });
}

export function useCreateTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: TargetCreate) => unwrap(await api.POST("/api/v1/targets", { body })) as Target,
    onSuccess: (t) => {
      qc.setQueryData<Target[]>(keys.targets, (list) => (list ? [...list.filter((x) => x.id !== t.id), t] : list));
      qc.invalidateQueries({ queryKey: keys.targets, refetchType: "none" });
    },
  });
}

export function useUpdateTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number; body: TargetUpdate }) =>
      unwrap(await api.PATCH("/api/v1/targets/{target_id}", { params: { path: { target_id: id } }, body })) as Target,
    onSuccess: (t) => {
      qc.setQueryData<Target[]>(keys.targets, (list) => list?.map((x) => (x.id === t.id ? t : x)));
      qc.invalidateQueries({ queryKey: keys.targets, refetchType: "none" });
    },
  });
}

export function useDeleteTarget() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      unwrap(await api.DELETE("/api/v1/targets/{target_id}", { params: { path: { target_id: id } } }));
      return id;
    },
    onSuccess: (id) => {
      // drop it here: an immediate refetch may still read the list from before the commit
      qc.setQueryData<Target[]>(keys.targets, (list) => list?.filter((t) => t.id !== id));
      qc.invalidateQueries({ queryKey: keys.targets, refetchType: "none" });
    },
  });
}
