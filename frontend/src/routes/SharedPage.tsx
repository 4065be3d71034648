import { useParams } from "react-router-dom";
import { ApiError } from "../api/client";
import { SharedTokenContext, sharedExportUrl, useShared } from "../api/shares";
import SharedCampaign from "../components/share/SharedCampaign";
import SharedComparison from "../components/share/SharedComparison";
import { ErrorState, Loading } from "../components/common/States";
import { useTitle } from "../components/common/useTitle";
import { fmtDateTime } from "../format";

/** What a revoked, expired, unknown or orphaned link shows. */
function LinkGone() {
  return (
    <div className="page" data-testid="share-gone">
      <h1>This link has expired or was revoked</h1>
      <p>The report it pointed to is no longer shared. Ask whoever sent it for a new link.</p>
    </div>
  );
}

/** A share link's page at /s/{token}: the report or comparison, read-only, with no login and no navigation that needs one. */
export default function SharedPage() {
  const { token = "" } = useParams();
  const shared = useShared(token);
  const gone = shared.error instanceof ApiError && [404, 410].includes(shared.error.status);
  const r = shared.data;
  useTitle(gone ? "Link expired" : `Shared ${r?.kind === "comparison" ? "comparison" : "report"}`);
  return (
    <div className="app shared-app">
      <header className="topbar">
        <span className="brand">Kneeboard</span>
        <span className="muted">read-only shared {r?.kind === "comparison" ? "comparison" : "report"}</span>
      </header>
      <main className="content">
        {shared.isPending ? (
          <Loading what="Loading the shared report" />
        ) : gone ? (
          <LinkGone />
        ) : shared.isError || !r ? (
          <ErrorState error={shared.error} retry={() => shared.refetch()} what="the shared report" />
        ) : (
          <SharedTokenContext.Provider value={token}>
            <div className="banner info shared-banner" data-testid="shared-note">
              <span>
                Shared {fmtDateTime(r.created_at)}; this link works until {fmtDateTime(r.expires_at)}.
              </span>
              {r.newer_analysis_available && <strong data-testid="newer-analysis">A newer analysis exists; this shows the one from when it was shared.</strong>}
              <a className="btn small" href={sharedExportUrl(token)} download data-testid="shared-export">
                Download HTML
              </a>
            </div>
            {r.kind === "comparison" && r.comparison ? (
              <SharedComparison report={{ ...r, comparison: r.comparison }} />
            ) : r.campaign && r.points ? (
              <SharedCampaign report={{ ...r, campaign: r.campaign, points: r.points }} />
            ) : null}
          </SharedTokenContext.Provider>
        )}
      </main>
    </div>
  );
}
