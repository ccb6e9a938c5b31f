"""`rederive` (domain/tournaments/verify.py): an honest record verifies; any edit shows as the first event that no
longer follows from the seed and the results."""

from __future__ import annotations

import msgspec
import pytest

from domain.engine import Event
from domain.rng import Rng
from domain.tournaments import decide, played_seed, rederive
from domain.tournaments.commands import Start
from domain.tournaments.events import EntrantResult, MatchResult, RoundEnded, RoundPaired, TournamentStarted
from domain.tournaments.standings import standings
from domain.tournaments.state import fold
from tests.tournaments.play import Run, create, play_out


def played(format: str, n: int = 8, seats: int = 2) -> Run:
    run = Run("tamper-seed")
    create(run, format=format, entrants=[f"p{i}" for i in range(n)], seats=seats,
           **({"rounds": 4} if format == "swiss" else {}))
    play_out(run, Rng.derive("results", 1))
    return run


def first(events: list[Event], kind: type, **where: object) -> int:
    return next(i for i, e in enumerate(events)
                if isinstance(e, kind) and all(getattr(e, k) == v for k, v in where.items()))


def flipped(result: MatchResult) -> MatchResult:
    """The same match with its two ranks swapped (a loss recorded as a win)."""
    a, b = result.results
    return msgspec.structs.replace(result, results=(msgspec.structs.replace(a, rank=b.rank, forfeit=b.forfeit),
                                                    msgspec.structs.replace(b, rank=a.rank, forfeit=a.forfeit)))


def decisive(events: list[Event], number: int) -> int:
    """The index of a decided (not drawn) result of round `number`."""
    return next(i for i, e in enumerate(events) if isinstance(e, MatchResult) and e.round == number
                and len({r.rank for r in e.results}) == 2)


@pytest.mark.parametrize("format", ["round-robin", "swiss", "knockout"])
def test_an_honest_record_verifies_and_a_wrong_seed_does_not(format: str) -> None:
    """The record of a played tournament re-derives from its seed; another seed fails its commitment."""
    run = played(format)
    assert rederive(run.events, run.seed) is None
    mismatch = rederive(run.events, "another seed")
    assert mismatch is not None and mismatch.index == 0


@pytest.mark.parametrize("format", ["round-robin", "swiss", "knockout"])
def test_a_result_changed_after_the_next_round_was_paired_fails(format: str) -> None:
    """Round 1's result edited in a record that goes on to round 2: the standings recorded after it no longer
    follow."""
    run = played(format)
    events = list(run.events)
    index = decisive(events, 1)
    events[index] = flipped(events[index])  # type: ignore[arg-type]
    mismatch = rederive(events, run.seed)
    assert mismatch is not None
    assert mismatch.index == first(events, RoundEnded, round=1)


def test_a_result_changed_with_its_standings_rewritten_still_fails_at_the_next_pairing() -> None:
    """A careful forger rewrites round 1's standings to match the edited result: in a knockout the loser now
    goes on, so round 2's pairing no longer follows."""
    run = played("knockout")
    events = list(run.events)
    index = decisive(events, 1)
    events[index] = flipped(events[index])  # type: ignore[arg-type]
    ended = first(events, RoundEnded, round=1)
    events[ended] = RoundEnded(round=1, standings=standings(fold(events[:ended])))
    mismatch = rederive(events, run.seed)
    assert mismatch is not None and mismatch.index == first(events, RoundPaired, round=2)


@pytest.mark.parametrize("format", ["round-robin", "swiss", "knockout"])
def test_an_edited_pairing_fails(format: str) -> None:
    """Two entrants of round 2 swapped between tables: that pairing is the first event that differs."""
    run = played(format, n=8)
    events = list(run.events)
    index = first(events, RoundPaired, round=2)
    paired = events[index]
    assert isinstance(paired, RoundPaired) and len(paired.tables) >= 2
    (a, *rest_a), (b, *rest_b), *others = paired.tables
    events[index] = msgspec.structs.replace(paired, tables=((b, *rest_a), (a, *rest_b), *others))
    mismatch = rederive(events, run.seed)
    assert mismatch is not None and mismatch.index == index


def test_an_order_not_drawn_from_the_seed_fails() -> None:
    """The seeded order of `tournament.started` is checked against Rng.derive(seed, 1)."""
    run = played("round-robin", n=6)
    events = list(run.events)
    index = first(events, TournamentStarted)
    started = events[index]
    assert isinstance(started, TournamentStarted)
    events[index] = msgspec.structs.replace(started, order=tuple(reversed(started.order)))
    mismatch = rederive(events, run.seed)
    assert mismatch is not None and mismatch.index == index


def test_a_round_paired_before_its_last_result_fails() -> None:
    """A result removed: the round-end that follows is refused (round-not-over)."""
    run = played("swiss", n=6)
    events = list(run.events)
    index = decisive(events, 2)
    del events[index]
    mismatch = rederive(events, run.seed)
    assert mismatch is not None and "round-not-over" in mismatch.reason


def test_a_result_for_a_table_that_does_not_hold_its_entrants_fails() -> None:
    """A result naming an entrant who was not at that table is refused where it stands."""
    run = played("swiss", n=6)
    events = list(run.events)
    index = decisive(events, 1)
    result = events[index]
    assert isinstance(result, MatchResult)
    outsider = next(e for e in range(6) if e not in {r.entrant for r in result.results})
    events[index] = msgspec.structs.replace(
        result, results=(EntrantResult(entrant=outsider, rank=1), *result.results[1:]))
    mismatch = rederive(events, run.seed)
    assert mismatch is not None and mismatch.index == index and "bad-result" in mismatch.reason


def test_an_inserted_pairing_fails() -> None:
    """A `round-paired` no command derives where it stands is refused."""
    run = played("knockout", n=4)
    events = list(run.events)
    index = first(events, RoundPaired, round=2)
    events.insert(index + 1, events[index])
    mismatch = rederive(events, run.seed)
    assert mismatch is not None and mismatch.index == index + 1


def started_with_entropy(format: str, entropy: str = "organiser-dice") -> Run:
    run = Run("tamper-seed")
    create(run, format=format, entrants=[f"p{i}" for i in range(8)], seats=2,
           **({"rounds": 4} if format == "swiss" else {}))
    play_out(run, Rng.derive("results", 1), entropy=entropy)
    return run


def test_the_played_seed_is_the_committed_one_without_entropy_and_both_mixed_with_it() -> None:
    assert played_seed("s", None) == "s"
    mixed = played_seed("s", "e")
    assert len(mixed) == 64 and mixed not in ("s", "e") and mixed == played_seed("s", "e")
    assert len({mixed, played_seed("s", "e2"), played_seed("s2", "e"), played_seed("se", ""),
                played_seed("s", "")}) == 5  # every part counts, with its length: "s"+"e" is not "se"+""


@pytest.mark.parametrize("format", ["round-robin", "swiss", "knockout"])
def test_a_start_with_the_organisers_entropy_plays_from_the_mixed_seed_and_verifies(format: str) -> None:
    """The seeded order and every pairing follow from the committed seed mixed with the entropy recorded at the
    start: the record verifies, and the order differs from the one the committed seed alone draws."""
    run = started_with_entropy(format)
    started = run.events[first(run.events, TournamentStarted)]
    assert isinstance(started, TournamentStarted) and started.entropy == "organiser-dice"
    assert rederive(run.events, run.seed) is None
    alone = Run("tamper-seed")
    create(alone, format=format, entrants=[f"p{i}" for i in range(8)], seats=2,
           **({"rounds": 4} if format == "swiss" else {}))
    alone.send(Start())
    assert alone.events[-2].order != started.order  # type: ignore[attr-defined]


def test_a_server_that_ignores_the_entropy_or_a_record_that_changes_it_fails() -> None:
    """The attack: the server records the organiser's entropy but draws from its own seed alone (as if none had been
    given), or the entropy in the record is edited afterwards; either way the start no longer re-derives."""
    honest = started_with_entropy("round-robin")
    ignored = Run("tamper-seed")
    create(ignored, format="round-robin", entrants=[f"p{i}" for i in range(8)], seats=2)
    (created,) = ignored.events
    drawn = decide(ignored.state, Start(), Rng.derive("tamper-seed", 1))  # the committed seed alone
    forged = [created, msgspec.structs.replace(drawn[0], entropy="organiser-dice"), *drawn[1:]]
    mismatch = rederive(forged, "tamper-seed")
    assert mismatch is not None and mismatch.index == 1
    events = list(honest.events)
    index = first(events, TournamentStarted)
    events[index] = msgspec.structs.replace(events[index], entropy="other-dice")  # type: ignore[type-var]
    mismatch = rederive(events, honest.seed)
    assert mismatch is not None and mismatch.index == index
