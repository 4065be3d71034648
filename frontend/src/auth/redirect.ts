// Where an unauthenticated browser goes: /login?next=<the page it was on>; `next` is only ever a same-site path.

const NO_LOGIN_PREFIXES = ["/login", "/shared", "/s/"];

/** A safe place to return to after login: a relative path on this site, else "/". */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return /[\u0000-\u001f]/.test(next) ? "/" : next;
}

/** The login URL that comes back to `here` (path, query and hash). */
export function loginUrl(here: string): string {
  return `/login?next=${encodeURIComponent(safeNext(here))}`;
}

/** On any 401 from the API: go to the login page, unless this page needs no login. */
export function onUnauthorized(): void {
  if (typeof window === "undefined") return;
  const { pathname, search, hash } = window.location;
  if (NO_LOGIN_PREFIXES.some((p) => pathname.startsWith(p))) return;
  window.location.assign(loginUrl(pathname + search + hash));
}
