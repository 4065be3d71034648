// devsim device profiles: GET/POST /profiles, DELETE /profiles/{id}. devsim checks a profile before it is stored.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { components } from "./schema";
import { api, unwrap } from "./client";
import { keys } from "./keys";

export type Profile = components["schemas"]["ProfileOut"];
export type ProfileCreate = components["schemas"]["ProfileCreate"];

/** The profile devsim always has; it is not in the list. */
export const BUILTIN_PROFILE = "singlelight";

/** Uploaded devsim device profiles (the built-in `singlelight` is always there besides). */
export function useProfiles(enabled = true) {
  return useQuery({
    queryKey: keys.profiles,
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }) => unwrap(await api.GET("/api/v1/profiles", { signal })) as Profile[],
  });
}

export function useCreateProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: ProfileCreate) => unwrap(await api.POST("/api/v1/profiles", { body })) as Profile,
    onSuccess: (p) => {
      // the answer is the truth: an immediate refetch may still read the list from before the commit
      qc.setQueryData<Profile[]>(keys.profiles, (list) => (list ? [...list.filter((x) => x.id !== p.id), p] : list));
      qc.invalidateQueries({ queryKey: keys.profiles, refetchType: "none" });
    },
  });
}

export function useDeleteProfile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      unwrap(await api.DELETE("/api/v1/profiles/{profile_id}", { params: { path: { profile_id: id } } }));
      return id;
    },
    onSuccess: (id) => {
      qc.setQueryData<Profile[]>(keys.profiles, (list) => list?.filter((x) => x.id !== id));
      qc.invalidateQueries({ queryKey: keys.profiles, refetchType: "none" });
    },
  });
}

/** The names a plan's `profile` field may take: the built-in first, then the uploaded ones. */
export function profileNames(profiles: Profile[] | undefined): string[] {
  const names = (profiles ?? []).map((p) => p.name).filter((n) => n !== BUILTIN_PROFILE);
  return [BUILTIN_PROFILE, ...names.sort((a, b) => a.localeCompare(b))];
}
