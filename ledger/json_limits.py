"""How deep JSON text nests, measured on the raw text before any parser recurses into it.

msgspec (like the standard library) parses nested arrays and objects recursively: a few thousand levels raise
RecursionError. Measuring first, with no recursion, turns such text into a plain refusal.
"""

from __future__ import annotations

import re

MAX_DEPTH = 64  # far beyond any body, event or record line the API has (about 6 levels)

# A JSON string, escapes included. Possessive, and an unterminated string runs to the end of the text, so every
# quote matches at once: linear time on any input, including malformed input.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_BRACKETS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


def nesting_depth(text: bytes | str, limit: int = MAX_DEPTH) -> int:
    """How many arrays/objects deep `text` nests (brackets inside strings do not count); stops counting past `limit`.

    For malformed text it may over-count (unclosed brackets all count), never under-count.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    shape = _STRING.sub(b"", raw).translate(_BRACKETS, _NOT_BRACKETS)
    depth = 0
    # Each pass removes the innermost pairs, so the passes count the depth of what is closed.
    while b"()" in shape:
        shape = shape.replace(b"()", b"")
        depth += 1
        if depth > limit:
            return depth
    return depth + shape.count(b"(")  # what stays open is as deep as it goes


def too_deep(text: bytes | str, limit: int = MAX_DEPTH) -> bool:
    """True when `text` nests deeper than `limit` levels."""
    return nesting_depth(text, limit) > limit
