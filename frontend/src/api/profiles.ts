// devsim device profiles: GET/POST /profiles, DELETE /profiles/{id}. devsim checks a profile before it is stored.
import { useQuery } from "@tanstack/react-query";
import type { components } from "./schema";
import { api, unwrap } from "./client";
import { keys } from "./keys";
import { useDropFromList, usePutInList } from "./query";

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
  return usePutInList(keys.profiles, async (body: ProfileCreate) => unwrap(await api.POST("/api/v1/profiles", { body })) as Profile);
}

export function useDeleteProfile() {
  return useDropFromList(keys.profiles, async (id) => unwrap(await api.DELETE("/api/v1/profiles/{profile_id}", { params: { path: { profile_id: id } } })));
}

/** The names a plan's `profile` field may take: the built-in first, then the uploaded ones. */
export function profileNames(profiles: Profile[] | undefined): string[] {
  const names = (profiles ?? []).map((p) => p.name).filter((n) => n !== BUILTIN_PROFILE);
  return [BUILTIN_PROFILE, ...names.sort((a, b) => a.localeCompare(b))];
}
