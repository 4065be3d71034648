import { useState } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import { exportUrl, useCampaign, useCancelCampaign } from "../api/campaigns";
import { useCampaignPoints } from "../api/points";
import { analysisOf, isActive, isCancellable } from "../api/types";
import { compareVariantsUrl, variantLabels } from "../charts/pointData";
import AttemptsNote from "../components/campaign/AttemptsNote";
import HostSharingNotice from "../components/campaign/HostSharingNotice";
import BaselinePin from "../components/campaign/BaselinePin";
import CampaignActions from "../components/campaign/CampaignActions";
import CampaignNotes from "../components/campaign/CampaignNotes";
import { TimelineCard } from "../components/campaign/CampaignTimeline";
import FactsTable, { VariantFactsTable } from "../components/campaign/FactsTable";
import LiveSection from "../components/campaign/LiveSection";
import RerunActions, { RERUN_OF, RerunNote } from "../components/campaign/RerunActions";
import ShareButton from "../components/share/ShareButton";
import ReportBody from "../components/campaign/ReportBody";
import ThresholdsForm from "../components/campaign/ThresholdsForm";
import { useCampaignEvents } from "../components/campaign/useCampaignEvents";
import ConfirmDialog from "../components/common/ConfirmDialog";
import CopyLinkButton from "../components/common/CopyLinkButton";
import GrafanaLink from "../components/common/GrafanaLink";
import { ErrorState, isNotFound, Loading } from "../components/common/States";
import { useTitle } from "../components/common/useTitle";
import NotFoundPage from "./NotFoundPage";
import StatusBadge from "../components/common/StatusBadge";
import { fmtDateTime, fmtDuration } from "../format";
import { findTool } from "../tools/catalog";
import { useTools } from "../tools/useTools";

export default function CampaignPage() {
  const { id: idParam } = useParams();
  const id = Number(idParam);
  const campaign = useCampaign(id);
  const tools = useTools();
  const active = !!campaign.data && isActive(campaign.data.status);
  const points = useCampaignPoints(id, { live: active });
  const { samples, stream, searches, events } = useCampaignEvents(id, active);
  const cancel = useCancelCampaign();
  const [confirming, setConfirming] = useState(false);
  const [params, setParams] = useSearchParams();
  useTitle(Number.isInteger(id) ? `Campaign #${id}` : "Campaign");

  if (!Number.isInteger(id)) return <NotFoundPage what={`Campaign "${idParam}"`} />;
  // units and headline metrics come from GET /tools: wait for it (it is fetched once)
  if (campaign.isPending || tools.isPending) return <Loading what="Loading campaign" />;
  // a failed refetch (the API restarting) keeps the report on screen; the live section says it is reconnecting
  if (campaign.isError && campaign.data === undefined)
    return isNotFound(campaign.error) ? <NotFoundPage what={`Campaign ${id}`} /> : <ErrorState error={campaign.error} retry={() => campaign.refetch()} what={`campaign #${id}`} />;

  const c = campaign.data;
  const tool = findTool(tools.data, c.tool);
  const allPoints = points.data ?? [];
  const target = c.target as { name?: string; host?: string; port?: number; kind?: string };
  const canCancel = isCancellable(c.status);
  // variants: a tab per label (?variant= keeps the choice in the shareable URL); points and analysis follow it
  const labels = variantLabels(c.plan, allPoints);
  const wanted = params.get("variant");
  const variant = labels.length ? (wanted != null && labels.includes(wanted) ? wanted : labels[0]) : null;
  const pts = variant != null ? allPoints.filter((p) => p.variant === variant) : allPoints;
  const envVariants = (c.environment as { variants?: Record<string, Record<string, unknown>> }).variants;
  const rerunOf = Number(params.get(RERUN_OF));
  const cancelled = c.progress.cancelled ?? Math.max(0, c.progress.total - c.summary.points_completed - c.summary.points_failed);
  const pickVariant = (l: string) => {
    const next = new URLSearchParams(params);
    if (l === labels[0]) next.delete("variant");
    else next.set("variant", l);
    setParams(next); // a tab is a view: Back returns to the previous one
  };

  return (
    <div className="page campaign-page" data-status={c.status}>
      <div className="page-head">
        <div>
          <h1>
            {c.name} <span className="muted">#{c.id}</span>
          </h1>
          <div className="subline">
            <StatusBadge status={c.status} partial={c.partial} />
            <span title={c.tool}>{tool?.title ?? c.tool}</span>
            <span>
              → {target?.name ?? "target"} <span className="mono muted">{target?.host}:{target?.port}</span>
            </span>
            <span className="muted">agent {c.agent}</span>
            <span className="muted">
              {fmtDateTime(c.started_at ?? c.created_at)}
              {c.ended_at ? ` – ${fmtDateTime(c.ended_at)}` : ""}
            </span>
            {c.tags.map((t) => (
              <span key={t} className="tag">
                {t}
              </span>
            ))}
          </div>
          {c.source && c.source !== "live" && (
            <div className="subline source-line">
              <span className="source-badge" data-testid="campaign-source" title="where these results came from">
                {c.source}
              </span>
              <span className="muted small">not run by Kneeboard: no per-second samples{c.plan_id == null ? ", no plan to relaunch" : ""}</span>
            </div>
          )}
        </div>
        <div className="actions">
          {canCancel && (
            <button type="button" className="btn danger" onClick={() => { cancel.reset(); setConfirming(true); }}>
              Cancel campaign
            </button>
          )}
          <RerunActions campaign={c} />
          <CampaignActions campaign={c} />
          <a className="btn" href={exportUrl(c.id, "csv")} download>
            Export CSV
          </a>
          <a className="btn" href={exportUrl(c.id, "json")} download>
            Export JSON
          </a>
          <a className="btn" href={exportUrl(c.id, "html")} download title="one self-contained HTML file: no script, no network, prints cleanly">
            Export HTML
          </a>
          <a className="btn" href={exportUrl(c.id, "md.zip")} download title="Markdown tables with the charts as SVG files, zipped">
            Export Markdown
          </a>
          {/* the link carries the view: variant tab, chart options */}
          <CopyLinkButton />
          <ShareButton campaignIds={[c.id]} />
          <GrafanaLink href={c.grafana_url} />
          {c.plan_id != null && (
            <>
              <Link className="btn link" to={`/plans/${c.plan_id}`}>
                Plan
              </Link>
              <Link className="btn link" to={`/trends?plan=${c.plan_id}`}>
                History of this plan
              </Link>
            </>
          )}
        </div>
      </div>

      {c.error && (
        <div className="banner error" role="alert">
          <strong>{c.status === "cancelled" ? "Cancelled" : "Error"}:</strong> {c.error}
        </div>
      )}
      <BaselinePin campaign={c} />
      <AttemptsNote campaign={c} points={allPoints} />
      <HostSharingNotice campaign={c} />
      {Number.isInteger(rerunOf) && rerunOf > 0 && rerunOf !== c.id && <RerunNote campaign={c} originalId={rerunOf} />}

      {active ? (
        <LiveSection campaign={c} tool={tool} points={pts} allPoints={allPoints} live={samples} stream={stream} events={events} />
      ) : (
        <section className="card" aria-label="Progress">
          <div className="progress-meta">
            <span data-testid="progress-count">
              <strong>{c.summary.points_completed}</strong> of {c.progress.total} points completed
              {c.summary.points_failed ? <span className="error-text"> · {c.summary.points_failed} failed</span> : null}
              {cancelled > 0 ? <span data-testid="progress-cancelled"> · {cancelled} cancelled or skipped</span> : null}
            </span>
            <span>took {fmtDuration(c.progress.elapsed_s)}</span>
          </div>
        </section>
      )}

      {variant != null && (
        <div className="tabs" role="tablist" aria-label="Variants" data-testid="variant-tabs">
          {labels.map((l) => (
            <button
              key={l}
              type="button"
              role="tab"
              id={`variant-tab-${labels.indexOf(l)}`}
              aria-selected={l === variant}
              aria-controls="variant-panel"
              onClick={() => pickVariant(l)}
            >
              {l}
              <span className="muted small"> · {allPoints.filter((p) => p.variant === l).length} pts</span>
            </button>
          ))}
          {labels.length >= 2 && (
            <span className="tabs-extra">
              <Link className="btn small" to={compareVariantsUrl(c.id, labels)}>
                Compare variants
              </Link>
            </span>
          )}
        </div>
      )}

      <div id="variant-panel" role={variant != null ? "tabpanel" : undefined} aria-labelledby={variant != null ? `variant-tab-${labels.indexOf(variant)}` : undefined}>
        <ReportBody
          campaign={c}
          points={allPoints}
          variant={variant}
          labels={labels}
          tool={tool}
          searchEvents={searches}
          pointEvidence
          controls={!active && c.summary.points_completed > 0 && <ThresholdsForm key={c.id} campaignId={c.id} analysis={analysisOf(c)} tool={tool} />}
          placeholder={
            points.isPending ? (
              <Loading what="Loading points" />
            ) : points.isError && !points.data ? (
              <ErrorState error={points.error} retry={() => points.refetch()} what="the campaign's points" />
            ) : undefined
          }
        >
          {!active && c.source === "live" && <TimelineCard points={allPoints} tool={tool} />}
        </ReportBody>
      </div>

      <CampaignNotes key={c.id} campaign={c} />

      <div className="two-col">
        <section className="card" aria-label="Environment">
          <h2>Environment</h2>
          <FactsTable facts={c.environment} omit={envVariants ? ["variants"] : []} empty={envVariants ? "No facts besides the variants'." : "No environment facts recorded."} />
          {envVariants && Object.keys(envVariants).length > 0 && (
            <>
              <h3>Under each variant</h3>
              <VariantFactsTable variants={envVariants} labels={labels} selected={variant ?? undefined} />
            </>
          )}
        </section>
        <section className="card" aria-label="Target">
          <h2>Target (snapshot)</h2>
          <FactsTable facts={c.target} />
          <details>
            <summary>Frozen plan</summary>
            <pre className="raw">{JSON.stringify(c.plan, null, 2)}</pre>
          </details>
        </section>
      </div>

      <ConfirmDialog
        open={confirming}
        title="Cancel this campaign?"
        confirmLabel="Cancel campaign"
        cancelLabel="Keep running"
        danger
        busy={cancel.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => cancel.mutate(c.id, { onSuccess: () => setConfirming(false) })}
      >
        <p>
          The running point is stopped and the remaining {Math.max(0, c.progress.total - c.progress.done)} points are skipped. Points already measured
          are kept.
        </p>
        {cancel.isError && <p className="error-text">{cancel.error.message}</p>}
      </ConfirmDialog>
    </div>
  );
}
