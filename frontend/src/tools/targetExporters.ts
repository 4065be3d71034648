// Monitor parameters that name one of the plan's target's exporters: the editor offers the target's exporters for them
// (a checkbox each), not a text field. Keyed by the parameter's name in the monitor's params schema.
import type { ToolInfo } from "./catalog";
import { fieldsOf } from "./schemaFields";

/** The parameter by which a monitor names one of the target's exporters (the exporter monitor's). */
export const EXPORTER_FIELD = "exporter";

/** Whether a monitor names one of the target's exporters, so it is ticked once per exporter. */
export function namesExporter(tool: ToolInfo): boolean {
  return fieldsOf(tool.params_schema).some((f) => f.name === EXPORTER_FIELD);
}
