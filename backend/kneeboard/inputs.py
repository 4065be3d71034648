"""Hostile-input checks shared by the API's body parsing and the importers. Pure functions.

Refused everywhere: NaN and Infinity, nesting deeper than MAX_DEPTH, control characters other than
tab and line breaks (NUL cannot even be stored by Postgres), lone surrogates, and ids beyond a 64-bit key.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from kneeboard.errors import Invalid

MAX_ID = 2**63 - 1
MAX_DEPTH = 64
_BAD_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def first_bad_char(text: str) -> int | None:
    """The index of the first refused character in `text`, or None."""
    found = _BAD_CHAR.search(text)
    return None if found is None else found.start()


def bad_char(text: str) -> str | None:
    """A description of the first refused character in `text` (position and code point), or None."""
    found = _BAD_CHAR.search(text)
    return None if found is None else f"a refused character U+{ord(found.group()):04X} (control or lone surrogate) at position {found.start() + 1}"


def check_tree(value: Any, loc: tuple = ()) -> None:
    """Walk parsed data: refuse depth over MAX_DEPTH, non-finite floats and refused characters, naming where."""
    stack: list[tuple[Any, tuple, int]] = [(value, loc, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Invalid(where[:4], f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, dict):
            for key, inner in item.items():
                if isinstance(key, str) and (why := bad_char(key)):
                    raise Invalid((*where, key), f"the key contains {why}")
                stack.append((inner, (*where, key), depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, (*where, i), depth + 1) for i, inner in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise Invalid(where, "NaN and Infinity are not numbers this API accepts")
        elif isinstance(item, str) and (why := bad_char(item)):
            raise Invalid(where, f"contains {why}")


def _no_constants(name: str) -> float:
    raise Invalid((), f"{name} is not valid JSON: NaN and Infinity are refused")


def check_json(raw: bytes) -> None:
    """Refuse a JSON body with NaN/Infinity, excessive nesting or refused characters; other syntax errors pass (FastAPI names them)."""
    try:
        document = json.loads(raw, parse_constant=_no_constants)
    except RecursionError:
        raise Invalid((), f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError:
        return
    check_tree(document)


def id_in_range(value: str) -> bool:
    """Whether a path segment meant as an id fits a 64-bit key (non-digits are left to the route's own parsing)."""
    digits = value.lstrip("+-")
    return not (digits.isascii() and digits.isdigit()) or len(digits) < 25 and abs(int(value)) <= MAX_ID
