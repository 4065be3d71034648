"""YAML from untrusted hands: a size cap before parsing, UTF-8 without control characters, a small alias
budget, a cap on the size of the document once aliases are expanded (no alias bomb), no recursive aliases,
limited depth, only plain JSON-like types, and no NaN or Infinity. Every refusal is an `Invalid`."""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, SequenceNode

from kneeboard.errors import Invalid
from kneeboard.inputs import bad_char, check_tree

MAX_ALIASES = 32
MAX_NODES = 200_000
MAX_DEPTH = 32


def _refuse(message: str, node_or_mark: Any = None) -> Invalid:
    mark = getattr(node_or_mark, "start_mark", node_or_mark)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None and hasattr(mark, "line") else ""
    return Invalid((), f"{where}{message}")


class _Loader(yaml.SafeLoader):
    """SafeLoader counting aliases and depth while it composes."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.aliases = 0
        self.depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        """Compose one node, refusing more than MAX_ALIASES aliases or MAX_DEPTH levels."""
        if self.check_event(AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _refuse(f"more than {MAX_ALIASES} aliases", self.peek_event())
            return super().compose_node(parent, index)
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _refuse(f"nested more than {MAX_DEPTH} levels deep", self.peek_event())
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _finite_float(loader: yaml.SafeLoader, node: Node) -> float:
    value = yaml.SafeLoader.construct_yaml_float(loader, node)
    if value != value or value in (float("inf"), float("-inf")):
        raise _refuse("NaN and Infinity are not numbers this API accepts", node)
    return value


def _refused_tag(_loader: yaml.SafeLoader, node: Node) -> None:
    raise _refuse(f"the tag {node.tag} is not accepted here", node)


_Loader.add_constructor("tag:yaml.org,2002:float", _finite_float)
_Loader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_scalar)  # dates stay text
for _tag in ("binary", "set", "omap", "pairs"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refused_tag)


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def expanded_size(root: Node, limit: int = MAX_NODES) -> int:
    """How many nodes the document has once every alias is expanded; refuses recursion and sizes over `limit`."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            open_nodes.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            if sizes[key] > limit:
                raise _refuse(f"the document expands to more than {limit} values (alias bomb?)", node)
        elif key not in sizes:
            if key in open_nodes:
                raise _refuse("a recursive alias", node)
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in _children(node) if id(child) not in sizes)
    return sizes[id(root)]


def _text(raw: bytes | str, max_bytes: int) -> str:
    if len(raw) > max_bytes:
        raise Invalid((), f"the document is over {max_bytes} bytes")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise Invalid((), f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if why := bad_char(line):
            raise Invalid((), f"line {number}: {why}")
    return text


def load(raw: bytes | str, *, max_bytes: int) -> Any:
    """Parse one untrusted YAML document into plain data within the limits above."""
    loader = _Loader(_text(raw, max_bytes))
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        expanded_size(node)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        raise _refuse(f"not YAML: {exc.problem}", exc.problem_mark) from None
    except yaml.YAMLError as exc:
        raise Invalid((), f"not YAML: {exc}") from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer of more than 4300 digits
        raise Invalid((), f"a value cannot be read: {str(exc)[:200]}") from None
    finally:
        loader.dispose()
    check_tree(data)
    return data
