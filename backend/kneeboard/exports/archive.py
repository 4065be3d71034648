"""The Markdown export's zip: report.md and charts/*.svg, as the renderer wrote them; nothing else goes in."""

from __future__ import annotations

import io
import json
import re
import zipfile

_NAME = re.compile(r"^(report\.md|charts/[a-z0-9-]{1,80}\.svg)$")


def markdown_zip(rendered: bytes, *, folder: str) -> bytes:
    """The zip of the renderer's `{"files": {name: text}}`, under `folder`/; a name it should not write is refused."""
    files = json.loads(rendered)["files"]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            if not _NAME.match(name):
                raise ValueError(f"the renderer wrote an unexpected file name {name!r}")
            archive.writestr(f"{folder}/{name}", text)
    return buffer.getvalue()
