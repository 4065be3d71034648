// The real GET /api/v1/tools answer (tools.json, dumped from the backend's registry) and real monitor samples
// (monitor-samples.json) for tests; both written by scripts/frontend_fixtures.py.
import type { PlanErrorContext } from "../../api/errors";
import type { Sample } from "../../api/types";
import type { ToolInfo } from "../catalog";
import samples from "./monitor-samples.json";
import raw from "./tools.json";

/** Every registered tool, as the API describes them. */
export const TOOLS = raw as unknown as ToolInfo[];

/** One tool of the fixture by name (throws when it is not there, so a renamed tool fails loudly). */
export function tool(name: string): ToolInfo {
  const t = TOOLS.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name} in the fixture`);
  return t;
}

/** The 422 reading context of a plan of `name`. */
export function planContext(name: string): PlanErrorContext {
  return { tool: name, names: TOOLS.map((t) => t.name) };
}

/** A point's monitor samples as GET /points/{id}/samples gives them, made by the monitors' own parsers from captured output:
 * CoreDNS's :9153 read by the coredns, process and go packs (one interval), a real node_exporter read by the node, process
 * and go packs (three intervals), mpstat on the lab. */
export const MONITOR_SAMPLES = samples as unknown as Record<"coredns" | "node_exporter" | "mpstat", Sample[]>;
