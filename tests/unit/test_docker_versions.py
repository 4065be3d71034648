"""The Dockerfile's default toolchain images satisfy what the code asks for: the Go image's version is at least
simulator/go.mod's `go` line, and the Node image's version is within frontend/package.json's `engines.node`
(Vite's range); docker-compose.yml passes the same defaults. A tag names the oldest release it can be:
`golang:1.23` is 1.23.0, `node:22` is 22.0.0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
Version = tuple[int, int, int]


def dockerfile_default(name: str) -> str:
    """The default of `ARG name=…` in docker/Dockerfile."""
    found = re.search(rf"^ARG {name}=(\S+)$", (ROOT / "docker" / "Dockerfile").read_text(), re.M)
    assert found, f"docker/Dockerfile has no default for ARG {name}"
    return found.group(1)


def image_version(image: str) -> Version:
    """The oldest version an official image's tag can hold: `node:20.19-bookworm-slim` → (20, 19, 0)."""
    tag = image.rpartition(":")[2]
    found = re.match(r"(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-|$)", tag)
    assert found, f"{image}: its tag names no version"
    return tuple(int(part or 0) for part in found.groups())  # type: ignore[return-value]


def _parse(text: str) -> Version:
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))  # type: ignore[return-value]


def _allows(comparator: str, version: Version) -> bool:
    op, bound = re.fullmatch(r"(\^|~|>=|<=|>|<|=)?v?(\d+(?:\.\d+){0,2})", comparator).groups()  # type: ignore[union-attr]
    low = _parse(bound)
    if op == "^":
        return low <= version and version[0] == low[0]
    if op == "~":
        return low <= version and version[:2] == low[:2]
    return {">=": version >= low, ">": version > low, "<=": version <= low, "<": version < low}.get(op, version == low)


def satisfies(version: Version, npm_range: str) -> bool:
    """Whether a version is within an npm range made of `||` alternatives of ^, ~, >=, >, <=, < or exact comparators."""
    return any(all(_allows(c, version) for c in alternative.split()) for alternative in npm_range.split("||"))


def test_the_go_image_is_at_least_go_mod_s_go_line():
    wanted = re.search(r"^go (\S+)$", (ROOT / "simulator" / "go.mod").read_text(), re.M).group(1)  # type: ignore[union-attr]
    image = dockerfile_default("GO_IMAGE")
    assert image.startswith("golang:") and image_version(image) >= _parse(wanted), f"{image} is older than go.mod's go {wanted}"


def test_the_node_image_is_within_the_frontend_s_engines():
    engines = json.loads((ROOT / "frontend" / "package.json").read_text())["engines"]["node"]
    image = dockerfile_default("NODE_IMAGE")
    assert image.startswith("node:") and satisfies(image_version(image), engines), f"{image} is outside engines.node {engines!r}"


def test_the_engines_agree_with_the_installed_vite():
    """package.json's range is Vite's own (or narrower): a Node it allows is one Vite runs on."""
    vite = ROOT / "frontend" / "node_modules" / "vite" / "package.json"
    if not vite.exists():
        pytest.skip("frontend/node_modules is not installed")
    ours = json.loads((ROOT / "frontend" / "package.json").read_text())["engines"]["node"]
    theirs = json.loads(vite.read_text())["engines"]["node"]
    for probe in [(major, minor, 0) for major in range(16, 30) for minor in range(0, 30)]:
        assert not satisfies(probe, ours) or satisfies(probe, theirs), f"{probe} is in {ours!r} but not Vite's {theirs!r}"


def test_the_compose_file_builds_with_the_dockerfile_s_defaults():
    """docker-compose 1.29 sends an unset `args` entry as empty, not as "the default": the file repeats each
    default, and they must agree."""
    args = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["api"]["build"]["args"]
    for name in ("DEBIAN_IMAGE", "GO_IMAGE", "NODE_IMAGE"):
        assert args[name] == f"${{{name}:-{dockerfile_default(name)}}}", f"docker-compose.yml's {name} is not the Dockerfile's default"


@pytest.mark.parametrize("image,version,npm_range,expected", [
    ("node:20.18-bookworm-slim", (20, 18, 0), "^20.19.0 || >=22.12.0", False),
    ("node:20.19-bookworm-slim", (20, 19, 0), "^20.19.0 || >=22.12.0", True),
    ("node:22-bookworm-slim", (22, 0, 0), "^20.19.0 || >=22.12.0", False),
    ("node:24-bookworm-slim", (24, 0, 0), "^20.19.0 || >=22.12.0", True),
    ("node:18", (18, 0, 0), ">=18 <19", True),
])  # fmt: skip
def test_tags_and_ranges_are_read_as_npm_reads_them(image, version, npm_range, expected):
    assert image_version(image) == version and satisfies(version, npm_range) is expected
