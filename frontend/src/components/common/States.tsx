import type { ReactNode } from "react";

export function Loading({ what = "Loading" }: { what?: string }) {
  return (
    <div className="state loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {what}…
    </div>
  );
}

export function ErrorState({ error, retry, title = "Something went wrong" }: { error: unknown; retry?: () => void; title?: string }) {
  const msg = error instanceof Error ? error.message : String(error);
  const status = (error as { status?: number } | null)?.status;
  return (
    <div className="state error" role="alert">
      <strong>{status === 404 ? "Not found" : title}</strong>
      <span>{msg}</span>
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
  if (query.isError) return <ErrorState error={query.error} retry={() => query.refetch()} />;
  if (empty !== undefined && isEmpty(query.data as T)) return <Empty>{empty}</Empty>;
  return <>{children(query.data as T)}</>;
}
