"""JUnit XML for CI: one test case per threshold, one for the baseline comparison, one for the campaign itself."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Case:
    """One test case: passed when `failure` is None; `skipped` marks an inconclusive check."""

    classname: str
    name: str
    failure: str | None = None
    detail: str = ""
    skipped: str | None = None


def write(path: Path, cases: list[Case], suite: str, seconds: float) -> None:
    """Write a <testsuites> document with one <testsuite>."""
    root = ET.Element("testsuites")
    node = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)),
                         failures=str(sum(c.failure is not None for c in cases)),
                         skipped=str(sum(c.skipped is not None for c in cases)), errors="0", time=f"{seconds:.1f}")  # fmt: skip
    for case in cases:
        element = ET.SubElement(node, "testcase", classname=case.classname, name=case.name, time="0")
        if case.failure is not None:
            ET.SubElement(element, "failure", message=case.failure).text = case.detail or case.failure
        elif case.skipped is not None:
            ET.SubElement(element, "skipped", message=case.skipped)
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
