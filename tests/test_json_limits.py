"""The nesting depth of JSON text, measured without parsing (ledger.json_limits)."""

from __future__ import annotations

import time
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.json_limits import MAX_DEPTH, nesting_depth, too_deep

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:\n\x00é'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet='[]{}"\\a'), inner, max_size=3),
    max_leaves=30,
)


def depth_of(value: Any) -> int:
    """The depth of a decoded value, by recursion (the reference the text measure must agree with)."""
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    return 0


@given(JSON)
@settings(max_examples=300)
def test_the_depth_of_any_json_text_is_that_of_its_value(value: Any) -> None:
    """Brackets inside strings (escaped quotes and backslashes included) do not count; every nesting does."""
    assert nesting_depth(msgspec.json.encode(value)) == depth_of(value)
    assert nesting_depth(msgspec.json.encode(value).decode()) == depth_of(value)


@pytest.mark.parametrize(("text", "depth"), [
    (b"", 0), (b"5", 0), (b"[]", 1), (b'{"a":[1,{"b":"[[[["}]}', 3), (rb'["\\",[[]]]', 3),
    (rb'"\"[[["', 0), (b"[[[", 3), (b"[1,2", 1), (b"]]]", 0), (b'"unterminated [[[', 0), (b"[" * 5000, 5000),
])
def test_depth_of_texts_including_malformed_ones(text: bytes, depth: int) -> None:
    """Malformed text is measured too: what stays open counts, so it never looks shallower than it parses."""
    assert nesting_depth(text, limit=10_000) == depth


def test_the_limit_is_inclusive() -> None:
    """`MAX_DEPTH` levels are fine, one more is too deep."""
    assert not too_deep("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert too_deep("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


@pytest.mark.parametrize(("text", "depth"), [
    (b'"' + b'\\"' * 2_000_000 + b"\\", 0),  # one string that never ends, full of escaped quotes
    (b"[" * 10_000_000, 10_000_000),
    (b"[]" * 5_000_000, 1),
])
def test_measuring_never_hangs_on_hostile_text(text: bytes, depth: int) -> None:
    """Ten megabytes of the worst shapes are measured, not backtracked over: a quadratic scan or a backtracking
    regex would take minutes here, so this guards the algorithm (speed itself is measured in bench/, not here)."""
    started = time.perf_counter()
    assert nesting_depth(text, limit=20_000_000) == depth
    assert time.perf_counter() - started < 10.0
