// Shared query and mutation helpers for the resource modules.
import { useMutation, useQuery, useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";

type WithId = { id: number };

/** One item by id; a null id disables the query. */
export function useById<T>(key: (id: number) => QueryKey, id: number | null | undefined, get: (id: number, signal: AbortSignal) => Promise<T>) {
  return useQuery({
    queryKey: key(id ?? 0),
    enabled: id != null,
    queryFn: ({ signal }) => get(id!, signal),
  });
}

/**
 * Put a created or updated item into a cached list (in place, or at the end) and mark the list stale
 * without refetching: the answer is the truth, an immediate refetch may still read the list from before the commit.
 */
export function putInList<T extends WithId>(qc: QueryClient, key: QueryKey, item: T) {
  qc.setQueryData<T[]>(key, (list) => (list?.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : list && [...list, item]));
  qc.invalidateQueries({ queryKey: key, refetchType: "none" });
}

/** Drop a deleted item from a cached list, likewise without refetching. */
export function dropFromList<T extends WithId>(qc: QueryClient, key: QueryKey, id: number) {
  qc.setQueryData<T[]>(key, (list) => list?.filter((x) => x.id !== id));
  qc.invalidateQueries({ queryKey: key, refetchType: "none" });
}

/** A create or update whose answer goes into the cached list under `key`. */
export function usePutInList<B, T extends WithId>(key: QueryKey, send: (body: B) => Promise<T>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: (item: T) => putInList(qc, key, item) });
}

/** A delete by id that drops the item from the cached list under `key`. */
export function useDropFromList(key: QueryKey, send: (id: number) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await send(id);
      return id;
    },
    onSuccess: (id: number) => dropFromList(qc, key, id),
  });
}
