"""Property: for every load tool, for parameter values in and around each bound of its Params model, the API
accepts a plan exactly when the tool's `build` accepts the same point (one source of truth for each bound)."""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.registry import adapter, load_tools

KIND = {"dns": 5353, "http": 8080, "net": 5201, "device": 9000}


def _edges(option: dict) -> list:
    """Values at, just inside and just outside each bound of a numeric schema."""
    integer, edges = option.get("type") == "integer", []
    for bound in (option.get("minimum"), option.get("maximum"), option.get("exclusiveMinimum")):
        if bound is not None:
            edges += [bound - 1, bound, bound + 1] if integer else [bound - 0.05, bound, bound + 0.05, bound / 2, bound * 2, bound + 0.5]
    return [int(e) if integer else e for e in edges]


def _around(low: float | None, high: float | None, integer: bool, exclusive_low: float | None = None) -> st.SearchStrategy:
    """Values at, just inside and just outside each bound, and anything between."""
    edges = _edges({"type": "integer" if integer else "number", "minimum": low, "maximum": high, "exclusiveMinimum": exclusive_low})
    inside = st.integers(int(low or -10), int(high or 10**6)) if integer else st.floats(low or -10.0, high or 1e6, allow_nan=False)
    picked = st.sampled_from(edges) if edges else inside
    return st.one_of(picked, inside)


def _field(schema: dict) -> st.SearchStrategy:
    options = schema.get("anyOf", [schema])
    choices = []
    for option in options:
        kind = option.get("type")
        if kind == "null":
            choices.append(st.none())
        elif kind in {"integer", "number"}:
            choices.append(_around(option.get("minimum"), option.get("maximum"), kind == "integer", option.get("exclusiveMinimum")))
        elif "enum" in option or "const" in option:
            values = option.get("enum", [option.get("const")])
            choices.append(st.sampled_from([*values, "not-a-choice"]))
        elif kind == "boolean":
            choices.append(st.booleans())
        elif kind == "string":
            choices.append(st.sampled_from([schema.get("default", "x"), "", "-rf", "a b", "x" * 2001]))
    return st.one_of(*choices)


def _params(tool: str) -> st.SearchStrategy:
    """Each field left out (its default) or generated around its bounds; the stored-profile field stays out."""
    properties = adapter(tool).Params.model_json_schema()["properties"]
    skip = {adapter(tool).stored_profile_param, "names"}
    fields = {name: _field(schema) for name, schema in properties.items() if name not in skip}
    return st.fixed_dictionaries({}, optional=fields)


def _every_edge(tool: str) -> list[dict]:
    """One parameter set per field and edge value, the other fields left at their defaults."""
    properties = adapter(tool).Params.model_json_schema()["properties"]
    return [{name: value} for name, schema in properties.items() for option in schema.get("anyOf", [schema])
            if option.get("type") in {"integer", "number"} for value in _edges(option)]  # fmt: skip


def _build_accepts(tool: str, point: dict, params: dict, host: str, port: int) -> bool:
    spec = PointSpec(host=host, port=port, concurrency=point["concurrency"], rate=point["offered_rate"],
                     duration_s=point["duration_s"], params=params)  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="kb-prop-") as workdir:
        try:
            adapter(tool).build(spec, Path(workdir))
        except ToolInputError:
            return False
    return True


@pytest.fixture(scope="module")
def targets(stack) -> dict[str, dict]:
    made = {}
    for kind, port in KIND.items():
        body = {"name": f"prop-{kind}-{uuid.uuid4().hex[:6]}", "kind": kind, "host": "127.0.0.1", "port": port}
        made[kind] = stack.api.post("/api/v1/targets", json=body).json()
    return made


@pytest.mark.parametrize("tool", [t.name for t in load_tools()])
def test_the_api_accepts_exactly_what_build_accepts(stack, targets, tool):
    target = targets[adapter(tool).target_kinds[0]]
    phase = {"kind": "baseline", "concurrency": 2, "duration_s": 2}
    if adapter(tool).takes_rate:
        phase["rate"] = 100
    base = {"name": "property", "tool": tool, "target_id": target["id"], "phases": [phase]}
    if tool == "dnsperf":
        base["params"] = {"names": ["www.example.lab"]}
    disagreements: list = []

    def check_one(params: dict) -> None:
        body = {**base, "params": {**base.get("params", {}), **params}}
        answer = stack.api.post("/api/v1/plans/preview", json=body)
        assert answer.status_code in (200, 422), answer.text
        if answer.status_code == 200:
            built = all(_build_accepts(tool, p, body["params"], target["host"], target["port"]) for p in answer.json()["points"])
        else:
            point = {"concurrency": 2, "offered_rate": phase.get("rate"), "duration_s": 2}
            built = _build_accepts(tool, point, body["params"], target["host"], target["port"])
        if built != (answer.status_code == 200):
            disagreements.append((params, answer.status_code, answer.text[:300]))
        assert built == (answer.status_code == 200), f"API {answer.status_code} but build {'accepts' if built else 'refuses'}: {params}"

    for params in _every_edge(tool):  # each bound for certain, then Hypothesis for combinations
        check_one(params)
    settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)(given(params=_params(tool))(check_one))()
    assert not disagreements
