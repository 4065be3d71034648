import type { ReactNode } from "react";

export function Loading({ what = "Loading" }: { what?: string }) {
  return (
    <div className="state loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {what}…
    </div>
  );
}

/** Whether an error is the API's 404 (the thing asked for does not exist). */
export const isNotFound = (error: unknown) => (error as { status?: number } | null)?.status === 404;

/** What failed, the API's reason, and a Retry button when `retry` is given. `what` names it: "Could not load {what}". */
export function ErrorState({ error, retry, what, title }: { error: unknown; retry?: () => void; what?: string; title?: string }) {
  const msg = error instanceof Error ? error.message : String(error);
  const status = (error as { status?: number } | null)?.status;
  const heading = title ?? (what ? `Could not load ${what}` : "Something went wrong");
  return (
    <div className="state error" role="alert">
      <strong>{status === 404 ? `Not found${what ? `: ${what}` : ""}` : heading}</strong>
      <span>
        {msg}
        {status != null && status >= 500 ? ` (HTTP ${status})` : ""}
      </span>
      {retry && (
        <button type="button" className="btn small" onClick={retry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}

/** "Loading the audit log" → "the audit log": what a failed query was fetching. */
export const failedThing = (loading: string) => loading.replace(/^Loading\s+/i, "").replace(/…$/, "");

type QueryLike<T> = { isPending: boolean; isError: boolean; error: unknown; data: T | undefined; refetch: () => unknown };

/**
 * A query's loading and error states, then `children(data)`; with `empty`, an empty list
 * (or whatever `isEmpty` says) shows that instead.
 */
export function QueryView<T>({
  query,
  loading,
  empty,
  isEmpty = (d) => Array.isArray(d) && d.length === 0,
  children,
}: {
  query: QueryLike<T>;
  loading: string;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={loading} />;
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} what={failedThing(loading)} />;
  if (empty !== undefined && isEmpty(query.data as T)) return <Empty>{empty}</Empty>;
  return <>{children(query.data as T)}</>;
}
