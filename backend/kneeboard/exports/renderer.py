"""The export renderer, run as a process: `node frontend/dist-export/render.js [--markdown]`, the document on stdin.

It draws the report with the app's own React components (frontend/export/), so the file's charts are the app's.
An argv list, never a shell; a timeout; caps on what goes in and what comes out; at most RENDER_SLOTS at once per
API process (a public share link can ask for one). Without node or the built renderer, exports answer 503 saying so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from pathlib import Path

from kneeboard.config import get_settings
from kneeboard.errors import TooLarge, TooMany, Unavailable

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_SCRIPT = ROOT / "frontend" / "dist-export" / "render.js"
RENDER_SLOTS = 2  # renders at once per API process: each is a Node process of ~1 s CPU on a small machine
_slots = threading.BoundedSemaphore(RENDER_SLOTS)


def command(markdown: bool) -> list[str]:
    """The renderer's argv, or Unavailable naming what is missing (node, or the renderer not built)."""
    settings = get_settings()
    node = shutil.which(settings.export_node)
    script = settings.export_renderer or DEFAULT_SCRIPT
    if node is None:
        raise Unavailable(f"HTML and Markdown exports need Node.js: {settings.export_node!r} is not on PATH (apt-get install nodejs; CSV and JSON exports work without it)")
    if not script.is_file():
        raise Unavailable(f"the export renderer is not built ({script}): run `cd frontend && npm run build` (make up does)")
    return [node, str(script), *(["--markdown"] if markdown else [])]


def render(document: dict, *, markdown: bool = False) -> bytes:
    """The document drawn as HTML (or, with `markdown`, the JSON of the Markdown report's files); blocking."""
    settings = get_settings()
    argv = command(markdown)
    data = json.dumps(document, default=str, separators=(",", ":")).encode()
    if len(data) > settings.export_max_input_bytes:
        raise TooLarge(f"this report is too large to export ({len(data)} bytes of data, the cap is {settings.export_max_input_bytes})")
    if not _slots.acquire(blocking=False):  # never park a request thread: a public share link can ask for renders
        raise TooMany(f"{RENDER_SLOTS} exports are being drawn already; try again in a moment", 5)
    try:
        done = subprocess.run(argv, input=data, capture_output=True, timeout=settings.export_timeout_s, check=False,
                              cwd=Path(argv[1]).parent, env={"PATH": "/usr/bin:/bin"})  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        raise Unavailable(f"the export took longer than {settings.export_timeout_s:g} s and was stopped") from exc
    finally:
        _slots.release()
    if done.returncode != 0:
        raise RuntimeError(f"export renderer exited {done.returncode}: {done.stderr.decode(errors='replace')[-2000:]}")
    if len(done.stdout) > settings.export_max_output_bytes:
        raise TooLarge(f"the exported file would be {len(done.stdout)} bytes, over the cap of {settings.export_max_output_bytes}")
    return done.stdout
