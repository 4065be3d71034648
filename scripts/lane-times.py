#!/usr/bin/env python3
"""Each lane's slowest test files, from the JUnit XML its pytest wrote: where `make test`'s time goes (printed by
scripts/test-python.sh at the end of a run). Usage: lane-times.py LABEL=FILE.xml [LABEL=FILE.xml ...] [--top N]."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import defaultdict


def file_seconds(path: str) -> dict[str, float]:
    """Seconds per test file (its tests' calls, set-ups and tear-downs as JUnit counts them)."""
    seconds: dict[str, float] = defaultdict(float)
    for case in ET.parse(path).getroot().iter("testcase"):
        module = case.get("classname", "").split("::")[0]
        seconds[module.rsplit(".", 1)[0] if module.count(".") > 2 else module] += float(case.get("time") or 0)
    return dict(seconds)


def main(argv: list[str]) -> int:
    """Print each lane's top files; a lane whose XML is missing or unreadable is said, not fatal."""
    top = 15
    if "--top" in argv:
        i = argv.index("--top")
        top, argv = int(argv[i + 1]), argv[:i] + argv[i + 2 :]
    for arg in argv:
        label, _, path = arg.partition("=")
        try:
            seconds = file_seconds(path)
        except (OSError, ET.ParseError) as exc:
            print(f"kneeboard: {label} lane: no timings ({exc})")
            continue
        print(f"kneeboard: {label} lane, {sum(seconds.values()):.0f} s in tests; its {top} slowest files:")
        for name, s in sorted(seconds.items(), key=lambda kv: -kv[1])[:top]:
            print(f"  {s:7.1f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
