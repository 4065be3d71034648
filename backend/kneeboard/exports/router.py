"""Export routes (plain `def`: FastAPI runs them in its thread pool, off the event loop): a report or a comparison as one HTML file or a Markdown zip; a share link's as HTML or a Markdown zip (public, through shares/public.py)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response

from kneeboard.deps import SessionDep
from kneeboard.exports import archive, document, renderer
from kneeboard.routes import Token

router = APIRouter(tags=["exports"])
COMPARE = Query(..., min_length=2, max_length=10, description="campaign ids (12) or variants (12@1 queue); the first is the reference")


def _site(request: Request) -> str:
    """The site's root as the request reached it (the base of the link back)."""
    return str(request.base_url).rstrip("/")


def _html(body: bytes, filename: str) -> Response:
    """An HTML file to save (never shown inline under the site's origin)."""
    return Response(body, media_type="text/html; charset=utf-8", headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _markdown(doc: dict, name: str) -> Response:
    """The document as Markdown with its charts as SVG files, zipped in folder `name`, to save."""
    body = archive.markdown_zip(renderer.render(doc, markdown=True), folder=name)
    return Response(body, media_type="application/zip", headers={"Content-Disposition": f'attachment; filename="{name}.md.zip"'})


def _comparison_name(c: list[str]) -> str:
    return "comparison-" + "-".join(s.split("@")[0] for s in c)


@router.get("/campaigns/{campaign_id}/export.html", response_class=Response)
def export_html(session: SessionDep, request: Request, campaign_id: int):
    """The report as one self-contained HTML file: no script, no network, its charts inline SVG (docs/exports.md)."""
    doc = document.campaign_document(campaign_id, site=_site(request), session=session)
    return _html(renderer.render(doc), f"campaign-{campaign_id}.html")


@router.get("/campaigns/{campaign_id}/export.md.zip", response_class=Response)
def export_markdown(session: SessionDep, request: Request, campaign_id: int):
    """The report as Markdown with its charts as SVG files, in one zip."""
    return _markdown(document.campaign_document(campaign_id, site=_site(request), session=session), f"campaign-{campaign_id}")


@router.get("/compare/export.html", response_class=Response)
def export_comparison(session: SessionDep, request: Request, c: list[str] = COMPARE):
    """A comparison as one self-contained HTML file."""
    doc = document.comparison_document(c, site=_site(request), session=session)
    return _html(renderer.render(doc), _comparison_name(c) + ".html")


@router.get("/compare/export.md.zip", response_class=Response)
def export_comparison_markdown(session: SessionDep, request: Request, c: list[str] = COMPARE):
    """A comparison as Markdown with its charts as SVG files, in one zip."""
    return _markdown(document.comparison_document(c, site=_site(request), session=session), _comparison_name(c))


@router.get("/shared/{token}/export.html", response_class=Response)
def export_shared(session: SessionDep, request: Request, token: str = Token):
    """Public (no login): what a share link shows, as one HTML file, with the analysis pinned when it was shared."""
    doc = document.shared_document(token, site=_site(request), session=session)
    return _html(renderer.render(doc), f"shared-{doc['kind']}.html")


@router.get("/shared/{token}/export.md.zip", response_class=Response)
def export_shared_markdown(session: SessionDep, request: Request, token: str = Token):
    """Public (no login): what a share link shows, as Markdown with its charts as SVG files, in one zip."""
    doc = document.shared_document(token, site=_site(request), session=session)
    return _markdown(doc, f"shared-{doc['kind']}")


@router.get("/shared/{token}/campaigns/{campaign_id}/export.html", response_class=Response)
def export_shared_campaign(session: SessionDep, request: Request, campaign_id: int, token: str = Token):
    """Public (no login): one of the link's campaigns as an HTML file; any other campaign answers 404."""
    doc = document.shared_document(token, site=_site(request), session=session, campaign_id=campaign_id)
    return _html(renderer.render(doc), f"campaign-{campaign_id}.html")
