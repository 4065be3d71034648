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
