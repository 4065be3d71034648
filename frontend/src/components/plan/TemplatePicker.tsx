import { useState } from "react";
import { useQuickLook, useTemplates } from "../../api/plans";
import type { PlanTemplate } from "../../api/types";
import type { ToolInfo } from "../../tools/catalog";
import { ErrorState, Loading } from "../common/States";

/** Start a new plan from a built-in template or from a blank plan for one tool. */
export default function TemplatePicker({ tools, onTemplate, onBlank }: { tools: ToolInfo[]; onTemplate: (t: PlanTemplate) => void; onBlank: (tool: ToolInfo) => void }) {
  const templates = useTemplates();
  const quick = useQuickLook();
  const [picked, setPicked] = useState<string>("");
  const tool = tools.find((t) => t.name === picked) ?? tools[0];
  return (
    <div className="template-picker">
      <h2>Start from</h2>
      {templates.isPending && <Loading what="Loading templates" />}
      {templates.isError && <ErrorState error={templates.error} retry={() => templates.refetch()} what="the templates" />}
      {quick.isError && <ErrorState error={quick.error} what="the quick look" />}
      <div className="template-grid">
        {templates.data?.map((t) => (
          <article key={t.id} className="card template" data-template-id={t.id}>
            <h3>{t.title}</h3>
            <p className="muted small">{t.description}</p>
            <p className="small">
              <span className="badge kind">{String(t.plan.tool)}</span> {t.seed && <span className="badge">seed {t.seed}</span>}{" "}
              {((t.plan.phases as { kind: string }[]) ?? []).map((p) => p.kind).join(" → ")}
            </p>
            {t.lab_targets && t.lab_targets.length > 0 && (
              <p className="muted small">
                For the lab&apos;s {t.lab_targets.join(", ")}
                {t.lab_targets.length > 1 ? " (one campaign each, then compare them)" : ""}
              </p>
            )}
            <button type="button" className="btn primary" onClick={() => onTemplate(t)}>
              Use this template
            </button>{" "}
            <button
              type="button"
              className="btn"
              disabled={quick.isPending}
              title="Every phase and variant with a few short points: see that it runs here before its full length"
              onClick={() => quick.mutate(t.id, { onSuccess: onTemplate })}
            >
              Quick look
            </button>
          </article>
        ))}
        <article className="card template blank">
          <h3>Blank plan</h3>
          <p className="muted small">One baseline phase; add the phases you need.</p>
          <label className="inline">
            Tool{" "}
            <select value={tool?.name ?? ""} onChange={(e) => setPicked(e.target.value)} name="blank-tool">
              {tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.title}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn" disabled={!tool} onClick={() => tool && onBlank(tool)}>
            Start blank
          </button>
        </article>
      </div>
    </div>
  );
}
