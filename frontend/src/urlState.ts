// A view's state in the query string: typed read and write of params with defaults.
// Defaults are left out of the URL so links stay short; keys the schema does not name are kept as they are.
import { useCallback, useEffect, useMemo, useState } from "react";
import { useInRouterContext, useLocation, useSearchParams } from "react-router-dom";

/** How one param is read from, and written to, its values in the query string (a key may repeat). */
export interface Codec<T> {
  def: T;
  read: (raw: string[]) => T;
  write: (v: T) => string[];
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Codecs for the kinds of params views keep. */
export const param = {
  /** A string; `def` when absent. */
  str: (def = ""): Codec<string> => ({ def, read: (r) => (r.length ? r[0] : def), write: (v) => [v] }),
  /** An integer within [min, max]; anything else reads as `def`. */
  int: (def: number, min = -Infinity, max = Infinity): Codec<number> => ({
    def,
    read: (r) => {
      const n = r.length ? Number(r[0]) : NaN;
      return Number.isInteger(n) && n >= min && n <= max ? n : def;
    },
    write: (v) => [String(v)],
  }),
  /** A flag: "1" when set. */
  bool: (def = false): Codec<boolean> => ({ def, read: (r) => (r.length ? r[0] === "1" : def), write: (v) => [v ? "1" : "0"] }),
  /** One of a fixed set of strings; anything else reads as `def`. */
  oneOf: <T extends string>(options: readonly T[], def: T): Codec<T> => ({
    def,
    read: (r) => (r.length && (options as readonly string[]).includes(r[0]) ? (r[0] as T) : def),
    write: (v) => [v],
  }),
  /** A list, one repeated key per item (?c=1&c=2); empty items are dropped. */
  list: (def: string[] = []): Codec<string[]> => ({ def, read: (r) => (r.length ? r.filter(Boolean) : def), write: (v) => v }),
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a schema mixes codecs of every value type
export type Schema = Record<string, Codec<any>>;
export type Values<S extends Schema> = { [K in keyof S]: S[K] extends Codec<infer T> ? T : never };
/** Push (the default) makes a history entry, so Back walks views; replace suits typing. */
export interface SetOptions {
  replace?: boolean;
}

/** The schema's values in `params`. */
export function readUrlState<S extends Schema>(schema: S, params: URLSearchParams): Values<S> {
  const out: Record<string, unknown> = {};
  for (const [k, codec] of Object.entries(schema)) out[k] = codec.read(params.getAll(k));
  return out as Values<S>;
}

/** `params` with `patch` applied: a value equal to its default leaves the URL; other keys stay. */
export function writeUrlState<S extends Schema>(schema: S, params: URLSearchParams, patch: Partial<Values<S>>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [k, v] of Object.entries(patch)) {
    const codec = schema[k];
    if (!codec || v === undefined) continue;
    next.delete(k);
    const raw = codec.write(v);
    if (!same(raw, codec.write(codec.def))) raw.forEach((x) => next.append(k, x));
  }
  return next;
}

/** The routed query string, or local state when there is no router (a chart rendered on its own). */
function useParamsHere(): [URLSearchParams, (next: URLSearchParams, o?: SetOptions) => void, string | null] {
  const [local, setLocal] = useState(() => new URLSearchParams());
  // useInRouterContext is fixed for a mounted tree, so the hooks called never change between renders
  const routed = useInRouterContext();
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const search = routed ? useSearchParams() : null;
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const pathname = routed ? useLocation().pathname : null;
  if (search) return [search[0], (next, o) => search[1](next, { replace: !!o?.replace }), pathname];
  return [local, (next) => setLocal(next), null];
}

/**
 * The browser's own query string when the browser's history holds the routed page (a BrowserRouter's entry), else null.
 * The router renders a navigation in a transition, later than it changes the address: until it has, a view's query
 * string is older than the address, and a change made from it would drop another view's change made meanwhile (two
 * charts' options set quickly on a busy machine).
 */
function addressQuery(pathname: string | null): string | null {
  if (pathname == null || typeof window === "undefined" || window.history.state?.key == null) return null;
  return window.location.pathname === pathname ? window.location.search.replace(/^\?/, "") : null;
}

/**
 * A view's state in the URL: `[values, set]`. `set(patch)` pushes a history entry so Back walks views;
 * `set(patch, { replace: true })` replaces the current one (typing). `schema` must be stable (a module constant, or memoised).
 */
export function useUrlState<S extends Schema>(schema: S): [Values<S>, (patch: Partial<Values<S>>, opts?: SetOptions) => void] {
  const [routed, setParams, pathname] = useParamsHere();
  const routedKey = routed.toString();
  // the router applies a navigation a moment later: until it has, show what was set (a checkbox answers at once)
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => setPending(null), [routedKey]);
  const key = pending ?? routedKey;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const params = useMemo(() => new URLSearchParams(key), [key]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const values = useMemo(() => readUrlState(schema, params), [schema, key]);
  const set = useCallback(
    (patch: Partial<Values<S>>, opts?: SetOptions) => {
      const base = new URLSearchParams(addressQuery(pathname) ?? key);
      const next = writeUrlState(schema, base, patch);
      if (next.toString() === base.toString()) return;
      setPending(next.toString());
      setParams(next, opts);
    },
    // setParams changes with the router's location; key is what this hook last showed
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [schema, key, routedKey, pathname],
  );
  return [values, set];
}
