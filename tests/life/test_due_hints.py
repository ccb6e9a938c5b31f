"""The sweep's `due_at` hints (store/base.py `due_matches`): the sweep loads only the matches due; a hint is never
later than a deadline or an abandonment; an early one is corrected by the one look it costs; ended matches and
matches without the options have none; the upgrade makes every live match with the options due once; `set_due`
never overwrites the hint of a match that moved on. On both stores (the `store` fixture)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from domain import match
from domain.lifecycle import Resign
from service.matches.deadlines import at, deadlines, sweep
from service.matches.matches import MatchService
from service.matches.model import LoadedMatch
from store import migrations
from store.base import utc_now

FAR = datetime(9999, 1, 1, tzinfo=utc_now().tzinfo)


@pytest.fixture
def service(store: Any) -> Iterator[MatchService]:
    """A match service on a fresh store of each kind."""
    yield MatchService(store)


def hints(service: MatchService) -> dict[str, datetime]:
    """Every match's `due_at` hint (matches without one are absent)."""
    return {match_id: due for due, match_id in service.store.due_matches(FAR, 10_000)}


def create(service: MatchService, **options: Any) -> str:
    """A 2-seat touched-on match of two people with these options."""
    return service.create("touched-on", ["p0", "p1"], options or None).record.id


def loads(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the matches read from the store from now on (every load is one of these reads)."""
    read: list[str] = []
    for name in ("match_with_events", "match_with_snapshot"):
        method = getattr(service.store, name)

        def counted(match_id: str, *args: Any, _method: Any = method) -> Any:
            read.append(match_id)
            return _method(match_id, *args)

        monkeypatch.setattr(service.store, name, counted)
    return read


def types(service: MatchService, match_id: str) -> list[str]:
    """The types of the match's events."""
    return [e.type for e in service.store.read_match(match_id)]


def test_the_sweep_loads_only_the_matches_due(service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    """30 matches with a 60 s deadline, 10 without options and 3 with a 10 s deadline: 30 s on, the sweep reads the
    3 due, times each out as it always did (the seat to move resigns, the match ends `timed-out`), and nothing else."""
    later = [create(service, move_deadline=60) for _ in range(30)]
    plain = [create(service) for _ in range(10)]
    due = [create(service, move_deadline=10) for _ in range(3)]
    assert set(hints(service)) == {*later, *due}
    now = utc_now() + timedelta(seconds=30)
    read = loads(service, monkeypatch)
    assert sweep(service, lambda: now) == 3
    assert set(read) == set(due)
    for match_id in due:
        assert types(service, match_id)[-3:] == ["match.timed-out", "match.seat-resigned", "match.ended"]
    for match_id in [*later, *plain]:
        assert "match.timed-out" not in types(service, match_id)
    assert set(hints(service)) == set(later)  # ended: no hint
    read.clear()
    assert sweep(service, lambda: now) == 0 and read == []


def test_an_early_hint_costs_one_look_and_is_then_exact(service: MatchService,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint set early (here by hand) makes the sweep look once: nothing is written, the hint becomes the true
    deadline, and a second sweep at the same time reads nothing."""
    match_id = create(service, move_deadline=60)
    loaded = service.load(match_id)
    (deadline,) = deadlines(service, loaded).values()
    assert hints(service)[match_id] == deadline  # the append's own candidate is exact here
    assert service.store.set_due(match_id, loaded.record.version, deadline - timedelta(seconds=50))
    now = deadline - timedelta(seconds=30)
    read = loads(service, monkeypatch)
    assert sweep(service, lambda: now) == 0 and read == [match_id]
    assert hints(service)[match_id] == deadline
    read.clear()
    assert sweep(service, lambda: now) == 0 and read == []


def test_an_abandonment_hint_kept_from_an_earlier_move_is_corrected(service: MatchService) -> None:
    """With `abandon_after` every append's candidate is its own time + abandon_after, but the row keeps the earlier
    hint: at that time the sweep finds nothing due (the match moved since) and sets updated_at + abandon_after."""
    match_id = create(service, abandon_after=100)
    first = hints(service)[match_id]
    play_randomly(service, match_id, random.Random(7), steps=2)
    loaded = service.load(match_id)
    assert not loaded.state.finished and hints(service)[match_id] == first
    assert sweep(service, lambda: first) == 0
    assert hints(service)[match_id] == at(loaded.record.updated_at) + timedelta(seconds=100)
    assert sweep(service, lambda: at(loaded.record.updated_at) + timedelta(seconds=100)) == 1
    assert types(service, match_id)[-1] == "match.ended" and match_id not in hints(service)


def play_randomly(service: MatchService, match_id: str, rng: random.Random, steps: int,
                  check: Any = None) -> LoadedMatch:
    """Play up to `steps` random legal moves (a rare resignation too), calling `check` after each."""
    loaded = service.load(match_id)
    for _ in range(steps):
        seats = match.to_move(loaded.game, loaded.state)
        if not seats:
            break
        seat = rng.choice(seats)
        command = Resign() if rng.random() < 0.02 else rng.choice(match.legal(loaded.game, loaded.state, seat))
        loaded = service.play(match_id, seat, command, expected_version=None, command_id=None).after
        if check is not None:
            check(loaded)
    return loaded


@pytest.mark.parametrize("options", [{"move_deadline": 60}, {"move_deadline": 45, "abandon_after": 50}])
def test_a_hint_is_never_later_than_a_deadline(service: MatchService, options: dict[str, Any]) -> None:
    """Random play: after every move the stored hint is at or before every deadline and the abandonment; once the
    match ends it has none."""

    def check(loaded: LoadedMatch) -> None:
        due = hints(service).get(loaded.record.id)
        if loaded.state.finished:
            assert due is None
            return
        truth = list(deadlines(service, loaded).values())
        if "abandon_after" in options:
            truth.append(at(loaded.record.updated_at) + timedelta(seconds=options["abandon_after"]))
        assert truth and due is not None and due <= min(truth)

    for game_seed in range(3):
        match_id = create(service, **options)
        check(service.load(match_id))
        play_randomly(service, match_id, random.Random(game_seed), steps=400, check=check)


def test_ended_matches_and_matches_without_the_options_have_no_hint(service: MatchService) -> None:
    """A match played (or resigned) to its end has no hint; one without the options never gets one."""
    timed = create(service, move_deadline=60)
    plain = create(service)
    play_randomly(service, plain, random.Random(1), steps=50, check=lambda _: None)
    assert plain not in hints(service)
    loaded = service.load(timed)
    seat = match.to_move(loaded.game, loaded.state)[0]
    service.play(timed, seat, Resign(), expected_version=None, command_id=None)
    assert service.load(timed).state.finished and hints(service) == {}


def test_the_upgrade_makes_every_live_match_with_the_options_due_once(service: MatchService) -> None:
    """The migration's backfill, run on rows without hints (as before the upgrade): the open or active matches with
    `move_deadline` or `abandon_after` are due now; the first sweep sets their exact hints."""
    timed, idle, _plain, ended = (create(service, move_deadline=60), create(service, abandon_after=600),
                                  create(service), create(service, move_deadline=60))
    loaded = service.load(ended)
    service.play(ended, match.to_move(loaded.game, loaded.state)[0], Resign(), expected_version=None,
                 command_id=None)
    store: Any = service.store
    folder = store.schema_folder
    (step,) = [m for m in migrations.load(folder) if m.name == "due_at"]
    (backfill,) = [s for s in step.sql.split(";") if "UPDATE matches" in s]
    before = utc_now()
    with store._transaction() as conn:
        conn.execute("UPDATE matches SET due_at = NULL")
        conn.execute(backfill.strip())
    after = utc_now()
    found = hints(service)
    assert set(found) == {timed, idle}
    assert all(before - timedelta(milliseconds=1) <= due <= after for due in found.values())
    assert sweep(service, lambda: after) == 0
    assert hints(service) == {timed: min(deadlines(service, service.load(timed)).values()),
                              idle: at(service.load(idle).record.updated_at) + timedelta(seconds=600)}


def test_set_due_leaves_a_match_that_moved_on_alone(service: MatchService) -> None:
    """A sweep's hint for version v is not stored once an append has moved the row past v (its own hint stands)."""
    match_id = create(service, move_deadline=60)
    seen = service.load(match_id)
    played = play_randomly(service, match_id, random.Random(3), steps=1)
    assert played.record.version > seen.record.version
    kept = hints(service)[match_id]
    assert not service.store.set_due(match_id, seen.record.version, FAR - timedelta(days=1))
    assert hints(service)[match_id] == kept
    assert service.store.set_due(match_id, played.record.version, None)
    assert match_id not in hints(service)
