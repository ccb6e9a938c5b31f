"""Shared by the worker tests: data in a store, and its read models compared with an in-memory fold."""

from __future__ import annotations

import random
from typing import Any

from domain.catalog import by_slug
from projections.catalog import PROJECTIONS
from projections.log import MemoryDocs, Projection, fold_all
from service.matches.matches import MatchService
from service.matches.simulate import play_random_match
from service.reads.runner import log_entry

PLAYERS = ["ada", "bob", "cy", "di"]


SHORT = {"max_turns": 12}  # Expect Delays' engine limit keeps these matches a few dozen moves long


def play_matches(store: Any, count: int, seed: int = 1, game: str = "expect-delays",
                 options: dict[str, Any] | None = SHORT, service: MatchService | None = None) -> None:
    """Play `count` random complete matches into `store` (through `service` if given)."""
    found = by_slug(game)
    assert found is not None
    rng = random.Random(seed)
    service = service or MatchService(store)
    for _ in range(count):
        play_random_match(service, found, rng.sample(PLAYERS, found.min_seats), rng, options)


def expected(store: Any, projection: Projection) -> MemoryDocs:
    """The read model folded in memory from the whole log."""
    entries, after = [], 0
    while batch := store.read_all(after, 1000):
        entries += [log_entry(e) for e in batch]
        after = batch[-1].position
    folded = fold_all(projection, entries)
    assert isinstance(folded, MemoryDocs)
    return folded


def assert_tables_equal_a_fresh_fold(store: Any, projections: tuple[Projection, ...] = PROJECTIONS) -> None:
    """Every stored document equals the in-memory fold of the log, and there are no others."""
    for projection in projections:
        memory = expected(store, projection)
        kinds = {kind for kind, _ in memory.items}
        for kind in kinds:
            stored = {row.key: (row.doc, row.group, row.rank) for row in store.docs(projection.name, kind,
                                                                                      limit=1_000_000)}
            wanted = {key: value for (k, key), value in memory.items.items() if k == kind}
            assert stored == wanted, f"{projection.name}/{kind} differs from a fresh fold"
