"""What differs between the dialects in the shared SQL: lists of values as parameters."""

from __future__ import annotations

from store.postgres import DIALECT as POSTGRES
from store.sqlite import DIALECT as SQLITE


def test_a_list_is_one_array_parameter_on_postgresql_whatever_its_length() -> None:
    # One statement text for a page's 100 matches or its 800 proof nodes: psycopg converts it once (not a placeholder
    # per value, split in Python) and PostgreSQL prepares it once.
    assert POSTGRES.one_of("match_id", ["a"]) == ("match_id = ANY(?)", [["a"]])
    assert POSTGRES.one_of("idx", list(range(800)))[0] == POSTGRES.one_of("idx", [7])[0]
    many = [(level, idx) for level in range(1, 9) for idx in range(100)]
    text, params = POSTGRES.pair_of(("level", "idx"), many)
    assert text == POSTGRES.pair_of(("level", "idx"), [(1, 2)])[0]
    assert params == [[level for level, _ in many], [idx for _, idx in many]]


def test_sqlite_lists_each_value() -> None:
    assert SQLITE.one_of("idx", [3, 5]) == ("idx IN (?, ?)", [3, 5])
    assert SQLITE.pair_of(("level", "idx"), [(1, 2), (3, 4)]) == (
        "((level = ? AND idx = ?) OR (level = ? AND idx = ?))", [1, 2, 3, 4])
