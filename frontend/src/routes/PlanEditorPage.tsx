import { useEffect, useMemo, useState, type FormEvent } from "react";
import { Link, useLocation, useNavigate, useParams } from "react-router-dom";
import { useLaunchCampaign } from "../api/campaigns";
import { errorsOf, messagesFor, type FieldErrors } from "../api/errors";
import { usePlan, usePlanPreview, useSavePlan } from "../api/plans";
import { useTargets, useTargetsOfKind } from "../api/targets";
import type { PhaseKind, PlanBody, Target } from "../api/types";
import { findTool, latencyLabel, loadTools, monitorTools, sloMetricsOf, targetKindOf, type ToolInfo } from "../tools/catalog";
import { useTools } from "../tools/useTools";
import Field, { FormErrors } from "../components/common/Field";
import PageHead from "../components/common/PageHead";
import { ErrorState, isNotFound, Loading } from "../components/common/States";
import NotFoundPage from "./NotFoundPage";
import ParamsEditor from "../components/plan/ParamsEditor";
import PhaseEditor from "../components/plan/PhaseEditor";
import PreviewPanel from "../components/plan/PreviewPanel";
import TemplatePicker from "../components/plan/TemplatePicker";
import VariantsEditor, { MonitorsEditor } from "../components/plan/VariantsEditor";
import UntilDecidedEditor, { type UntilDecided } from "../components/plan/UntilDecidedEditor";
import type { PlanCopyState } from "../components/campaign/RerunActions";
import { blankDraft, blankPhase, DEFAULT_SLO_LIMIT_MS, draftFromPlan, draftGaps, draftToBody, hasDerivedLoad, movePhase, phaseKindsFor, withTargetExporters, withTool, type DeriveMode, type PhaseDraft, type PlanDraft } from "../components/plan/planModel";
import { useDebounced } from "../hooks";

export default function PlanEditorPage() {
  const { id: idParam } = useParams();
  const planId = idParam ? Number(idParam) : null;
  const plan = usePlan(planId);
  const tools = useTools();
  const [draft, setDraft] = useState<PlanDraft | null>(null);
  const [loadedId, setLoadedId] = useState<number | null>(null);
  const [templateName, setTemplateName] = useState<string | null>(null);
  // "Edit a copy" on a report: its frozen plan arrives in the router state
  const copyOf = (useLocation().state as PlanCopyState | null)?.copyOf ?? null;
  const [copiedFrom, setCopiedFrom] = useState<number | null>(null);

  // load a stored plan into the form once (and again when the route changes to another plan)
  useEffect(() => {
    if (planId == null) {
      if (loadedId != null) {
        setDraft(null);
        setLoadedId(null);
      }
      if (copyOf && tools.data && copiedFrom !== copyOf.campaignId) {
        setDraft(draftFromPlan(copyOf.plan, tools.data));
        setCopiedFrom(copyOf.campaignId);
      }
      return;
    }
    if (plan.data && tools.data && loadedId !== plan.data.id) {
      setDraft(draftFromPlan(plan.data as unknown as Record<string, unknown>, tools.data));
      setLoadedId(plan.data.id);
    }
  }, [planId, plan.data, tools.data, loadedId, copyOf, copiedFrom]);

  const back = { to: "/plans", label: "All plans" };
  if (planId != null && Number.isNaN(planId)) return <NotFoundPage what={`Plan "${idParam}"`} back={back} />;
  if (planId != null && plan.isPending) return <Loading what="Loading plan" />;
  if (planId != null && plan.isError)
    return isNotFound(plan.error) ? <NotFoundPage what={`Plan ${planId}`} back={back} /> : <ErrorState error={plan.error} retry={() => plan.refetch()} what={`plan #${planId}`} />;
  if (tools.isPending) return <Loading what="Loading tools" />;
  if (tools.isError) return <ErrorState error={tools.error} retry={() => tools.refetch()} what="the tool list" />;

  return (
    <div className="page plan-editor">
      <PageHead
        title={planId != null ? `Plan #${planId}` : "New plan"}
        note={
          planId == null &&
          (copiedFrom != null ? (
            <p className="muted" data-testid="copy-of">
              a copy of the plan of campaign <Link to={`/campaigns/${copiedFrom}`}>#{copiedFrom}</Link>
            </p>
          ) : (
            templateName && <p className="muted">from template “{templateName}”</p>
          ))
        }
      >
        <Link to="/plans" className="btn link">
          All plans
        </Link>
      </PageHead>
      {draft == null ? (
        planId == null ? (
          <TemplatePicker
            tools={loadTools(tools.data)}
            onTemplate={(t) => {
              setTemplateName(t.title);
              setDraft(draftFromPlan(t.plan, tools.data));
            }}
            onBlank={(tool) => setDraft(blankDraft(tool))}
          />
        ) : (
          <Loading what="Loading plan" />
        )
      ) : (
        <Editor key={loadedId ?? (copiedFrom != null ? `copy-${copiedFrom}` : "new")} planId={planId} initial={draft} tools={tools.data} />
      )}
    </div>
  );
}

function Editor({ planId, initial, tools }: { planId: number | null; initial: PlanDraft; tools: ToolInfo[] }) {
  const navigate = useNavigate();
  const save = useSavePlan();
  const launch = useLaunchCampaign();
  const [d, setD] = useState<PlanDraft>(initial);
  // the targets of the tool's kind (GET /targets?kind=); the full list only to name a loaded plan's other-kind target
  const tool = findTool(tools, d.tool);
  const kind = targetKindOf(tool);
  const targets = useTargetsOfKind(kind);
  const allTargets = useTargets();
  const [saveErrors, setSaveErrors] = useState<FieldErrors>({});
  const [savedJson, setSavedJson] = useState<string | null>(planId != null ? JSON.stringify(draftToBody(initial, tools)) : null);
  // the plan's tool and the names of every tool and monitor: how a 422's loc is read
  const errorContext = useMemo(() => ({ tool: d.tool, names: tools.map((t) => t.name) }), [d.tool, tools]);

  const body = useMemo(() => draftToBody(d, tools), [d, tools]);
  const bodyJson = JSON.stringify(body);
  const dirty = savedJson !== bodyJson;
  // preview as the user types (debounced), only a complete draft (no 422 for a template without its target yet);
  // an empty name is no reason to hold the preview back
  const settled = useDebounced(d, 350);
  const gaps = useMemo(() => draftGaps(settled, tools), [settled, tools]);
  const complete = Object.keys(gaps).length === 0;
  const previewBody = useMemo(() => {
    const b = draftToBody(settled, tools);
    return { ...b, name: b.name || "preview" } as PlanBody;
  }, [settled, tools]);
  const preview = usePlanPreview(complete ? previewBody : null);
  const previewErrors = !complete ? gaps : preview.isError ? errorsOf(preview.error, errorContext) : {};
  const errors: FieldErrors = Object.keys(saveErrors).length ? saveErrors : previewErrors;

  // picking a target (the default one, or the user's) ticks every exporter it lists when the tool takes monitors; a stored
  // plan's own choice is kept as loaded
  const pickTarget = (x: PlanDraft, t: Target | undefined): PlanDraft => ({
    ...x,
    targetId: t ? String(t.id) : "",
    monitors: t && tool?.monitors ? withTargetExporters(x.monitors, tools, t.exporters ?? []) : x.monitors,
  });

  // a default target of the right kind once targets are known
  useEffect(() => {
    if (d.targetId || !targets.data) return;
    const match = targets.data[0];
    if (match) setD((x) => pickTarget(x, match));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [targets.data, d.targetId]);

  const update = (patch: Partial<PlanDraft>) => {
    setSaveErrors({});
    setD((x) => ({ ...x, ...patch }));
  };
  const updatePhase = (i: number, patch: Partial<PhaseDraft>) => update({ phases: d.phases.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
  const changeKind = (i: number, k: PhaseKind) => update({ phases: d.phases.map((p, j) => (j === i ? { ...blankPhase(k, tool), key: p.key, label: p.label } : p)) });

  const doSave = async (): Promise<number | null> => {
    try {
      const saved = await save.mutateAsync({ id: planId, body });
      setSaveErrors({});
      setSavedJson(bodyJson);
      if (planId == null) navigate(`/plans/${saved.id}`, { replace: true });
      return saved.id;
    } catch (err) {
      setSaveErrors(errorsOf(err, errorContext));
      return null;
    }
  };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    await doSave();
  };
  const onLaunch = async () => {
    const id = dirty || planId == null ? await doSave() : planId;
    if (id == null) return;
    try {
      const c = await launch.mutateAsync({ plan_id: id });
      navigate(`/campaigns/${c.id}`);
    } catch (err) {
      setSaveErrors(errorsOf(err));
    }
  };

  const sameKind = targets.data ?? [];
  // a stored plan may point at a target of another kind (or one deleted since): keep it visible so the API's message explains
  const current = d.targetId && !sameKind.some((t) => String(t.id) === d.targetId) ? allTargets.data?.find((t) => String(t.id) === d.targetId) : undefined;
  const err = (p: string) => messagesFor(errors, p);
  const target = sameKind.find((t) => String(t.id) === d.targetId) ?? current;

  return (
    <form className="editor-layout" onSubmit={onSubmit} aria-label="Plan" noValidate>
      <div className="editor-main">
        <section className="card">
          <div className="grid-3">
            <Field label="Plan name" errors={err("name")}>
              <input name="name" value={d.name} onChange={(e) => update({ name: e.target.value })} required autoFocus />
            </Field>
            <Field label="Tool" errors={err("tool")}>
              <select
                name="tool"
                value={d.tool}
                onChange={(e) => {
                  const next = findTool(tools, e.target.value);
                  if (!next) return;
                  setSaveErrors({});
                  setD((x) => withTool(x, next));
                }}
              >
                {loadTools(tools).map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.title}
                  </option>
                ))}
                {!tool && <option value={d.tool}>{d.tool} (not registered)</option>}
              </select>
            </Field>
            <Field label="Target" errors={err("target_id")} hint={targets.data && sameKind.length === 0 ? `no ${kind} target yet` : undefined}>
              <select
                name="target_id"
                value={d.targetId}
                onChange={(e) => {
                  const picked = sameKind.find((t) => String(t.id) === e.target.value);
                  setSaveErrors({});
                  setD((x) => (picked ? pickTarget(x, picked) : { ...x, targetId: e.target.value }));
                }}
              >
                <option value="">— choose a target —</option>
                {sameKind.length > 0 && (
                  <optgroup label={`${kind} targets`}>
                    {sameKind.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name} ({t.host}:{t.port})
                      </option>
                    ))}
                  </optgroup>
                )}
                {current && (
                  <option value={current.id}>
                    {current.name} ({current.kind}: not a {kind} target)
                  </option>
                )}
                {d.targetId && !current && !sameKind.some((t) => String(t.id) === d.targetId) && <option value={d.targetId}>target #{d.targetId}</option>}
              </select>
            </Field>
          </div>
          {targets.data && targets.data.length === 0 && (
            <p className="small">
              No {kind} target yet: <Link to="/targets">create one</Link> first.
            </p>
          )}
        </section>

        <section className="card">
          <h2>{tool?.title ?? d.tool} parameters</h2>
          <ParamsEditor schema={tool?.params_schema} values={d.params} errors={errors} onChange={(k, v) => update({ params: { ...d.params, [k]: v } })} />
        </section>

        <section className="phases" aria-label="Phases">
          <div className="section-head">
            <h2>Phases</h2>
            <FormErrors errors={messagesFor(errors, "phases", { exact: true })} />
          </div>
          {d.phases.map((p, i) => (
            <PhaseEditor
              key={p.key}
              phase={p}
              index={i}
              count={d.phases.length}
              tool={tool}
              errors={errors}
              onChange={(patch) => updatePhase(i, patch)}
              onKind={(k) => changeKind(i, k)}
              onMove={(to) => update({ phases: movePhase(d.phases, i, to) })}
              onRemove={() => update({ phases: d.phases.filter((_, j) => j !== i) })}
            />
          ))}
          <div className="add-phase">
            <span className="muted small">Add a phase:</span>
            {phaseKindsFor(tool).map((k) => (
              <button key={k} type="button" className="btn small" onClick={() => update({ phases: [...d.phases, blankPhase(k, tool)] })}>
                + {k}
              </button>
            ))}
          </div>
        </section>

        <section className="card">
          <h2>Run settings</h2>
          <div className="grid-3">
            <Field label="Pause between points (s)" errors={err("pause_s")}>
              <input name="pause_s" value={d.pause} onChange={(e) => update({ pause: e.target.value })} inputMode="decimal" />
            </Field>
            <Field label="Repeat each point" errors={err("repeat")}>
              <input name="repeat" value={d.repeat} onChange={(e) => update({ repeat: e.target.value })} inputMode="numeric" />
            </Field>
            <Field label="Tags" errors={err("tags")} hint="comma-separated">
              <input name="tags" value={d.tags} onChange={(e) => update({ tags: e.target.value })} />
            </Field>
          </div>
          <div className="grid-3" data-testid="slo-fields">
            <Field label="SLO: latency" errors={err("slo.metric")} hint="the report's capacity is the highest load keeping it">
              <select name="slo_metric" value={d.sloMetric} onChange={(e) => update({ sloMetric: e.target.value })}>
                <option value="">p99 when measured, else the mean</option>
                {sloMetricsOf(tool).map((m) => (
                  <option key={m.name} value={m.name}>
                    {latencyLabel(tool, m.name)}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="SLO: at most (ms)" errors={err("slo.limit_ms")} hint={`default ${DEFAULT_SLO_LIMIT_MS} ms`}>
              <input name="slo_limit_ms" value={d.sloLimit} onChange={(e) => update({ sloLimit: e.target.value })} inputMode="decimal" />
            </Field>
          </div>
          {tool?.monitors && <MonitorsEditor monitors={d.monitors} available={monitorTools(tools)} exporters={target ? target.exporters ?? [] : undefined} errors={errors} onChange={(monitors) => update({ monitors })} />}
        </section>

        <section className="card">
          <VariantsEditor variants={d.variants} errors={errors} onChange={(variants) => update({ variants })} />
          {(d.variants.length >= 2 || d.kept?.until_decided != null) && (
            <UntilDecidedEditor value={d.kept?.until_decided as UntilDecided | undefined} errors={errors}
              onChange={(until) => update({ kept: { ...d.kept, until_decided: until } })} />
          )}
          {hasDerivedLoad(d) && (
            <Field label="Derived loads" errors={err("derive")}
              hint="each variant and repetition at its own fraction of what it found, or all at the reference variant's first (one absolute rate: matched loads for a comparison)">
              <select name="derive" value={d.derive ?? "own"} onChange={(e) => update({ derive: e.target.value as DeriveMode })}>
                <option value="own">each its own</option>
                <option value="reference">the reference variant's, for all</option>
              </select>
            </Field>
          )}
        </section>
      </div>

      <aside className="editor-side">
        <div className="sticky">
          <div className="card save-bar">
            <FormErrors errors={errors[""]} />
            <div className="actions">
              <button type="submit" className="btn" disabled={save.isPending}>
                {save.isPending ? "Saving…" : planId == null ? "Save plan" : dirty ? "Save changes" : "Saved"}
              </button>
              <button type="button" className="btn primary" onClick={onLaunch} disabled={save.isPending || launch.isPending}>
                {launch.isPending ? "Launching…" : dirty || planId == null ? "Save & launch" : "Launch"}
              </button>
            </div>
            {dirty && planId != null && <p className="muted small">Unsaved changes.</p>}
          </div>
          <PreviewPanel preview={preview.data} tool={tool} errors={errors} checking={preview.isFetching} />
        </div>
      </aside>
    </form>
  );
}
