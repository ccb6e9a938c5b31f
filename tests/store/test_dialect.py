"""What differs between the dialects in the shared SQL: lists of values as parameters."""

from __future__ import annotations

from store.postgres import DIALECT as POSTGRES
from store.sqlite import DIALECT as SQLITE

NODE_KEYS = {"level": "bigint", "idx": "bigint"}


def test_a_list_is_one_array_parameter_on_postgresql_whatever_its_length() -> None:
    # One statement text for a page's 100 matches or its 800 proof nodes: psycopg converts it once (not a placeholder
    # per value, split in Python) and PostgreSQL prepares it once.
    assert POSTGRES.one_of("idx", [7]) == ("idx = ANY(?)", [[7]])
    assert POSTGRES.one_of("idx", list(range(800)))[0] == POSTGRES.one_of("idx", [7])[0]
    many = [(level, idx) for level in range(1, 9) for idx in range(100)]
    text, params = POSTGRES.each_of("log_nodes", "level, idx, hash", NODE_KEYS, many)
    assert text == POSTGRES.each_of("log_nodes", "level, idx, hash", NODE_KEYS, [(1, 2)])[0]
    assert params == [[level for level, _ in many], [idx for _, idx in many]]


def test_on_postgresql_each_wanted_key_is_a_subquery_of_its_own() -> None:
    # An index scan a match (a LATERAL subquery its ORDER BY keeps from being flattened), each key once.
    text, params = POSTGRES.each_of("events", "version, hash", {"match_id": "text"}, [("a",), ("b",), ("a",)],
                                    "version")
    assert text == ("SELECT picked.* FROM unnest(?::text[]) AS wanted(w0) CROSS JOIN LATERAL (SELECT version, hash "
                    "FROM events WHERE events.match_id = wanted.w0 ORDER BY version) AS picked")
    assert params == [["a", "b"]]


def test_sqlite_lists_each_value() -> None:
    assert SQLITE.one_of("idx", [3, 5]) == ("idx IN (?, ?)", [3, 5])
    assert SQLITE.each_of("events", "version", {"match_id": "text"}, [("a",), ("b",)], "version") == (
        "SELECT version FROM events WHERE match_id IN (?, ?) ORDER BY match_id, version", ["a", "b"])
    assert SQLITE.each_of("log_nodes", "hash", NODE_KEYS, [(1, 2), (3, 4)]) == (
        "SELECT hash FROM log_nodes WHERE (level = ? AND idx = ?) OR (level = ? AND idx = ?)", [1, 2, 3, 4])
