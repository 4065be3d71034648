"""GET /tools: what every registered tool takes and produces, for the UI to learn from."""

from __future__ import annotations

from fastapi import APIRouter

from kneeboard.errors import NotFound
from kneeboard.tools.registry import adapter, all_tools
from kneeboard.tools.schemas import ToolOut

router = APIRouter(prefix="/tools", tags=["tools"])


@router.get("", response_model=list[ToolOut])
def list_tools():
    """Every registered tool: params JSON Schema (bounds included), metrics with units, target kinds."""
    return [tool.describe() for tool in all_tools()]


@router.get("/{name}", response_model=ToolOut)
def get_tool(name: str):
    """One registered tool."""
    try:
        return adapter(name).describe()
    except KeyError:
        raise NotFound("tool", name) from None
