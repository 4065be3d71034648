import { useState } from "react";
import { useTemplates } from "../../api/plans";
import { TOOLS, type PlanTemplate, type Tool } from "../../api/types";
import { ErrorState, Loading } from "../common/States";

/** Start a new plan from a built-in template or from a blank plan for one tool. */
export default function TemplatePicker({ onTemplate, onBlank }: { onTemplate: (t: PlanTemplate) => void; onBlank: (tool: Tool) => void }) {
  const templates = useTemplates();
  const [tool, setTool] = useState<Tool>("dnsperf");
  return (
    <div className="template-picker">
      <h2>Start from</h2>
      {templates.isPending && <Loading what="Loading templates" />}
      {templates.isError && <ErrorState error={templates.error} retry={() => templates.refetch()} />}
      <div className="template-grid">
        {templates.data?.map((t) => (
          <article key={t.id} className="card template" data-template-id={t.id}>
            <h3>{t.title}</h3>
            <p className="muted small">{t.description}</p>
            <p className="small">
              <span className="badge kind">{String(t.plan.tool)}</span>{" "}
              {((t.plan.phases as { kind: string }[]) ?? []).map((p) => p.kind).join(" → ")}
            </p>
            <button type="button" className="btn primary" onClick={() => onTemplate(t)}>
              Use this template
            </button>
          </article>
        ))}
        <article className="card template blank">
          <h3>Blank plan</h3>
          <p className="muted small">One baseline phase; add the phases you need.</p>
          <label className="inline">
            Tool{" "}
            <select value={tool} onChange={(e) => setTool(e.target.value as Tool)} name="blank-tool">
              {TOOLS.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <button type="button" className="btn" onClick={() => onBlank(tool)}>
            Start blank
          </button>
        </article>
      </div>
    </div>
  );
}
