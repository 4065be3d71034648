"""Campaign and point routes."""

from __future__ import annotations


from fastapi import APIRouter, File, Form, Query, Response, UploadFile
from fastapi.concurrency import run_in_threadpool

from kneeboard import live
from kneeboard.campaigns import export, importer, service
from kneeboard.campaigns.dispatch import DispatcherDep
from kneeboard.campaigns.downsample import MAX_SERIES_POINTS
from kneeboard.campaigns.listing import campaign_page
from kneeboard.campaigns.query import Filters, Sort
from kneeboard.campaigns.importer import ImportFile
from kneeboard.errors import invalid
from kneeboard.campaigns.analysis import Thresholds
from kneeboard.campaigns.schemas import CampaignChange, CampaignCreate, CampaignOut, CampaignPage, PointEvidence, PointOut, SampleSeries
from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser
from kneeboard.deps import SessionDep
from kneeboard.inputs import MAX_ID
from kneeboard.campaigns.launch import start

router = APIRouter(tags=["campaigns"])


@router.post("/campaigns", response_model=CampaignOut, status_code=202)
def launch(session: SessionDep, body: CampaignCreate, user: CurrentUser, enqueue: DispatcherDep):
    """Launch a plan: a queued campaign, enqueued on its agent."""
    campaign = start(lambda: service.launch(body.plan_id, name=body.name, tags=body.tags, session=session, agent=body.agent),
                      user=user, action="launch", details=lambda _c: {"plan_id": body.plan_id}, session=session, enqueue=enqueue)
    return service.describe(campaign, session=session)


@router.post("/campaigns/import", response_model=CampaignOut, status_code=201)
async def import_campaign(
    session: SessionDep,
    user: CurrentUser,
    file: list[UploadFile] = File(..., description="seed CSV, Kneeboard JSON export, or raw dnsperf outputs (one per point)"),
    name: str | None = Form(default=None, max_length=200),
    target_id: int | None = Form(default=None, ge=1, le=MAX_ID),
):
    """A finished, analysed campaign from results people already have; nothing is stored when a file is malformed."""
    uploads = []
    for upload in file:
        raw = await upload.read()
        try:
            uploads.append(ImportFile(name=upload.filename or "upload", text=raw.decode("utf-8")))
        except UnicodeDecodeError as exc:
            raise invalid(("file",), f"{upload.filename}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return await run_in_threadpool(_import, uploads, name, target_id, session, user)


def _import(uploads: list[ImportFile], name: str | None, target_id: int | None, session, user) -> dict:  # noqa: ANN001
    """The CPU-bound part of an import, run in a worker thread so the event loop keeps answering."""
    if target_id is not None:
        from kneeboard.targets.service import get_target

        get_target(target_id, session=session)
    try:
        campaign = importer.import_campaign(uploads, name=name, target_id=target_id, session=session)
    except importer.ImportRefused as exc:
        raise invalid(("file",), str(exc)) from None
    record_by(session, user, "import", "campaign", campaign.id, campaign.name, {"files": len(uploads)})
    return service.describe(campaign, session=session)


@router.get("/campaigns", response_model=CampaignPage)
def list_campaigns(
    session: SessionDep,
    status: str | None = Query(default=None, max_length=20),
    target_id: int | None = Query(default=None, ge=1, le=MAX_ID),
    tool: str | None = Query(default=None, max_length=20),
    tag: str | None = Query(default=None, max_length=40),
    q: str | None = Query(default=None, max_length=200),
    limit: int = Query(default=20, ge=1, le=200),
    offset: int = Query(default=0, ge=0, le=MAX_ID),
    cursor: str | None = Query(default=None, max_length=40, description="next_cursor of the previous page (offset is then ignored)"),
    archived: bool = Query(default=False, description="list archived campaigns instead of the others"),
    sort: Sort = Query(default="newest", description="newest or oldest first (by cursor or offset), or by name (by offset)"),
):
    """Campaign history, newest first unless `sort` says otherwise: by offset, or by cursor (keyset; cheap at any depth)."""
    filters = Filters(status=status, target_id=target_id, tool=tool, tag=tag, q=q, archived=archived)
    return campaign_page(filters, session=session, limit=limit, offset=offset, cursor=cursor, sort=sort)


@router.get("/campaigns/{campaign_id}", response_model=CampaignOut)
def get_campaign(session: SessionDep, campaign_id: int):
    """Status, progress, summary, environment and analysis (computed on demand for older campaigns)."""
    campaign = service.refresh_analysis(service.get_campaign(campaign_id, session=session))
    return {**service.describe(campaign, session=session), "baseline_campaign_id": service.pinned_baseline(campaign, session=session)}


@router.delete("/campaigns/{campaign_id}", status_code=204)
def delete_campaign(session: SessionDep, campaign_id: int, user: CurrentUser):
    """Delete a campaign that is not running, with its points and samples."""
    campaign = service.delete_campaign(campaign_id, session=session)
    record_by(session, user, "delete", "campaign", campaign_id, campaign.name)
    return Response(status_code=204)


@router.patch("/campaigns/{campaign_id}", response_model=CampaignOut)
def change_campaign(session: SessionDep, campaign_id: int, body: CampaignChange, user: CurrentUser):
    """Archive a campaign (hidden from the default list) or bring it back; keep notes with it."""
    campaign = service.change(campaign_id, archived=body.archived, notes=body.notes, session=session)
    if body.archived is not None:
        record_by(session, user, "archive" if body.archived else "unarchive", "campaign", campaign.id, campaign.name)
    if body.notes is not None:
        record_by(session, user, "notes", "campaign", campaign.id, campaign.name, {"length": len(body.notes)})
    return service.describe(campaign, session=session)


@router.post("/campaigns/{campaign_id}/analysis", response_model=CampaignOut)
def reanalyse(session: SessionDep, campaign_id: int, body: Thresholds, user: CurrentUser):
    """Recompute the analysis with the user's thresholds (knee rule, SLA zone latencies) and keep it."""
    campaign = service.refresh_analysis(service.get_campaign(campaign_id, session=session), body)
    record_by(session, user, "reanalyse", "campaign", campaign.id, campaign.name)
    return service.describe(campaign, session=session)


@router.post("/campaigns/{campaign_id}/cancel", response_model=CampaignOut)
def cancel(session: SessionDep, campaign_id: int, user: CurrentUser):
    """Stop a campaign; finished points stay."""
    campaign = service.cancel(campaign_id, session=session)
    record_by(session, user, "cancel", "campaign", campaign.id, campaign.name)
    session.commit()
    live.publish(campaign_id, "status", {"status": campaign.status})
    return service.describe(campaign, session=session)


@router.get("/campaigns/{campaign_id}/points", response_model=list[PointOut])
def list_points(session: SessionDep, campaign_id: int):
    """Every point's parameters, metrics and status."""
    return service.list_points(campaign_id, session=session)


@router.get("/points/{point_id}", response_model=PointEvidence)
def get_point(session: SessionDep, point_id: int):
    """One point with its evidence."""
    return service.get_point(point_id, session=session)


@router.get("/points/{point_id}/samples", response_model=SampleSeries)
def point_samples(
    session: SessionDep,
    point_id: int,
    series: str | None = Query(default=None, max_length=60),
    max_points: int = Query(default=MAX_SERIES_POINTS, ge=10, le=MAX_ID, description=f"clamped to {MAX_SERIES_POINTS}"),
):
    """A point's interval series, downsampled to at most max_points per series (more than the server's cap is clamped)."""
    return service.point_samples(point_id, series=series, max_points=max_points, session=session)


@router.get("/campaigns/{campaign_id}/export.csv")
def export_csv(session: SessionDep, campaign_id: int):
    """Points as CSV."""
    campaign = service.get_campaign(campaign_id, session=session)
    headers = {"Content-Disposition": f'attachment; filename="campaign-{campaign_id}.csv"'}
    return Response(export.to_csv(campaign), media_type="text/csv", headers=headers)


@router.get("/campaigns/{campaign_id}/export.json")
def export_json(session: SessionDep, campaign_id: int):
    """The whole campaign as JSON (importable)."""
    campaign = service.get_campaign(campaign_id, session=session)
    headers = {"Content-Disposition": f'attachment; filename="campaign-{campaign_id}.json"'}
    return Response(export.to_json(campaign), media_type="application/json", headers=headers)


