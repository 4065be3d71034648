import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import { useDropFromList, usePutInList } from "./query";
import type { Target, TargetCreate, TargetKind, TargetUpdate } from "./types";

export function useTargets() {
  return useQuery({
    queryKey: keys.targets,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/targets", { signal })) as Target[],
  });
}

/** Targets of one kind (GET /targets?kind=); filtered here too, in case an older API ignores the parameter. */
/** The targets of one kind (GET /targets?kind=); an undefined kind disables the query. */
export function useTargetsOfKind(kind: TargetKind | undefined) {
  return useQuery({
    queryKey: keys.targetsOfKind(kind ?? ""),
    enabled: kind !== undefined,
    queryFn: async ({ signal }) =>
      (unwrap(await api.GET("/api/v1/targets", { params: { query: { kind } }, signal })) as Target[]).filter((t) => t.kind === kind),
  });
}

export function useCreateTarget() {
  return usePutInList(keys.targets, async (body: TargetCreate) => unwrap(await api.POST("/api/v1/targets", { body })) as Target);
}

export function useUpdateTarget() {
  return usePutInList(
    keys.targets,
    async ({ id, body }: { id: number; body: TargetUpdate }) =>
      unwrap(await api.PATCH("/api/v1/targets/{target_id}", { params: { path: { target_id: id } }, body })) as Target,
  );
}

export function useDeleteTarget() {
  return useDropFromList(keys.targets, async (id) => unwrap(await api.DELETE("/api/v1/targets/{target_id}", { params: { path: { target_id: id } } })));
}
