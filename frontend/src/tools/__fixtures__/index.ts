// The real GET /api/v1/tools answer (tools.json, dumped from the backend's registry) for tests.
import type { PlanErrorContext } from "../../api/errors";
import type { ToolInfo } from "../catalog";
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
