import { useEffect } from "react";

export const APP_NAME = "Kneeboard";

/** The browser tab's title for a page: "Campaign #12 — Kneeboard" (the app's name alone without one). */
export function pageTitle(title?: string | null): string {
  return title ? `${title} — ${APP_NAME}` : APP_NAME;
}

/** Set document.title while the page is shown. */
export function useTitle(title?: string | null): void {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
