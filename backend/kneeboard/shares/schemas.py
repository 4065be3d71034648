"""Share-link request and response bodies."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from kneeboard.campaigns.schemas import CampaignOut, PointOut
from kneeboard.compare.schemas import Comparison
from kneeboard.inputs import MAX_ID
from kneeboard.tools.schemas import ToolOut

MAX_EXPIRY_S = 90 * 86_400
ExpiresIn = Field(ge=1, le=MAX_EXPIRY_S, description="lifetime of the link in seconds (1 s to 90 days)")


class ShareCreate(BaseModel):
    """A link to one campaign's report."""

    model_config = ConfigDict(extra="forbid")
    expires_in_s: int = ExpiresIn


class ComparisonShareCreate(ShareCreate):
    """A link to a comparison of 2 to 10 campaigns (the first is the reference)."""

    campaign_ids: list[Annotated[int, Field(ge=1, le=MAX_ID)]] = Field(min_length=2, max_length=10)


class ShareCreated(BaseModel):
    """A new link: `url` holds the token and is shown this once."""

    id: int
    url: str
    expires_at: datetime


class ShareOut(BaseModel):
    """A link as listed: never its token."""

    id: int
    kind: Literal["campaign", "comparison"]
    campaign_ids: list[int | None] = Field(description="the campaigns it shows (null: deleted since)")
    campaign_names: list[str]
    created_by: str
    created_at: datetime
    expires_at: datetime
    expired: bool


class SharedReport(BaseModel):
    """What a share link shows: one campaign's report (`campaign`, `points`) or a comparison, with the tools it needs."""

    kind: Literal["campaign", "comparison"]
    created_at: datetime
    expires_at: datetime
    campaign: CampaignOut | None = None
    points: list[PointOut] | None = None
    cpu_profile_points: list[int] = Field(default=[], description="the points whose CPU profile the page shows (per variant, the point it details)")
    comparison: Comparison | None = None
    tools: list[ToolOut] = Field(description="GET /tools entries of the tools the report names (that route needs a login)")
    analysis_versions: dict[str, str] = Field(description="campaign id → the analysis version pinned when shared")
    newer_analysis_available: bool = Field(description="a campaign's live analysis differs from the one pinned here")

