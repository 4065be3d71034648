// The typed HTTP client (openapi-fetch over the generated schema) and the error it throws.
import createClient from "openapi-fetch";
import type { paths } from "./schema";
import { onUnauthorized } from "../auth/redirect";

export const API_BASE = "/api/v1";

export const api = createClient<paths>({ baseUrl: "" });

/** An HTTP error from the API, keeping the status and the parsed `detail`. */
export class ApiError extends Error {
  status: number;
  detail: unknown;
  constructor(status: number, detail: unknown) {
    super(describeDetail(status, detail));
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    if (status === 401) onUnauthorized();
  }
}

function describeDetail(status: number, detail: unknown): string {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    const msgs = detail
      .map((d) => (d && typeof d === "object" && "msg" in d ? String((d as { msg: unknown }).msg) : ""))
      .filter(Boolean);
    if (msgs.length) return msgs.slice(0, 3).join("; ");
  }
  return `HTTP ${status}`;
}

/** Unwrap an openapi-fetch result: the data, or an ApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    const err = result.error as { detail?: unknown } | undefined;
    throw new ApiError(result.response.status, err && typeof err === "object" && "detail" in err ? err.detail : err);
  }
  return result.data as T;
}

/** The JSON body of a fetch response (text when it is not JSON), or an ApiError with its `detail`. */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!res.ok) {
    const detail = body && typeof body === "object" && "detail" in body ? (body as { detail: unknown }).detail : body;
    throw new ApiError(res.status, detail);
  }
  return body as T;
}

/** A plain GET for routes not (yet) in the generated schema. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return readJson<T>(await fetch(`${API_BASE}${path}`, { signal, headers: { accept: "application/json" } }));
}
