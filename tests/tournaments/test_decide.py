"""`decide` (domain/tournaments/decide.py, create.py): what it accepts, and each refusal's stable code."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.engine import Refusal
from domain.rng import Rng, seed_commitment
from domain.tournaments import decide
from domain.tournaments.commands import (
    TOURNAMENT_COMMANDS,
    Advance,
    CreateTournament,
    Join,
    OpenTable,
    RecordResult,
    Start,
    Withdraw,
)
from domain.tournaments.events import Entrant, EntrantResult, PlayerJoined, TournamentCreated
from tests.tournaments.play import Run, create

CommandUnion: Any = TOURNAMENT_COMMANDS[0]
for _type in TOURNAMENT_COMMANDS[1:]:
    CommandUnion = CommandUnion | _type


def refused(run: Run, command: Any) -> str:
    """The code `decide` refuses `command` with; the record is unchanged."""
    before = list(run.events)
    with pytest.raises(Refusal) as refusal:
        run.send(command)
    assert run.events == before
    return refusal.value.code


def creation(**fields: Any) -> str:
    body = {"game": "terminus", "format": "swiss", "entrants": ["a", "b", "c"], "seats": 3, "rounds": 2,
            "seed_commitment": seed_commitment("s"), **fields}
    with pytest.raises(Refusal) as refusal:
        decide(None, msgspec.convert(body, CreateTournament), Rng.derive("s", 1))
    return refusal.value.code


def test_create_records_the_game_edition_format_and_entrants() -> None:
    """A handle, a bot with its own name, an open place: three entrants, in entry order."""
    run = Run()
    create(run, format="knockout", entrants=["ann", {"bot": "random", "name": "r1"}, None], seats=2)
    created = run.events[0]
    assert isinstance(created, TournamentCreated)
    assert created.entrants == (Entrant(handle="ann"), Entrant(bot="random", name="r1"), Entrant())
    assert (created.game, created.format, created.table_size, created.advance) == ("expect-delays", "knockout", 2, 1)
    assert created.seed_commitment == seed_commitment(run.seed) and created.rules_version


@pytest.mark.parametrize(("fields", "code"), [
    ({"game": "chess"}, "unknown-game"),
    ({"rules_version": "99"}, "unknown-edition"),
    ({"format": "ladder"}, "bad-format"),
    ({"seats": 6}, "bad-seat-count"),
    ({"rounds": None}, "bad-rounds"),
    ({"format": "round-robin"}, "bad-rounds"),
    ({"rounds": 0}, "bad-rounds"),
    ({"table_size": 2}, "bad-table-size"),
    ({"advance": 1}, "bad-advance"),
    ({"format": "knockout", "rounds": None, "advance": 3}, "bad-advance"),
    ({"entrants": ["a"]}, "too-few-entrants"),
    ({"entrants": ["a", "a", "b"]}, "duplicate-entrant"),
    ({"entrants": ["a", {"bot": "random", "name": "r"}, {"bot": "random", "name": "r"}]}, "duplicate-entrant"),
    ({"entrants": ["a", {"bot": "random"}, "b"]}, "bad-entrant"),
    ({"entrants": ["a", {"bot": "genius", "name": "g"}, "b"]}, "unknown-bot"),
    ({"entrants": ["a", {"team": "t", "members": ["x", "y", "z"]}, "b"]}, "bad-entrant"),
    ({"entrants": ["a", "bot:random", "b"]}, "bad-entrant"),
    ({"options": {"no_such_option": 1}}, "bad-options"),
    ({"options": {"move_deadline": 60}}, "bad-options"),
    ({"visibility": "secret"}, "bad-option"),
    ({"seeding": "by-rating"}, "bad-option"),
])
def test_create_refusals(fields: dict[str, Any], code: str) -> None:
    """Each bad creation is refused with its code."""
    assert creation(**fields) == code


def test_a_cooperative_team_needs_one_member_a_seat() -> None:
    """Mass Transit teams: members fill the match's seats, one each."""
    assert creation(game="mass-transit", seats=2, entrants=["a", {"team": "t", "members": ["x"]}]) == "bad-entrant"


def test_nobody_enters_twice_not_even_inside_a_team() -> None:
    """A player in two teams, or a team member also entered alone, is refused."""
    teams = [{"team": "t1", "members": ["x", "y"]}, {"team": "t2", "members": ["y", "z"]}]
    assert creation(game="mass-transit", seats=2, entrants=teams) == "duplicate-entrant"
    assert creation(game="mass-transit", seats=2, entrants=[teams[0], "x"]) == "duplicate-entrant"
    run = Run()
    create(run, format="swiss", entrants=[teams[0], None], seats=2, game="mass-transit", rounds=1)
    assert refused(run, Join(handle="t3", members=("y", "w"))) == "already-entered"


def test_commands_refuse_unknown_fields() -> None:
    """Commands decode strictly (events leniently): a misspelt field is an error, not a silent default."""
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type": "tournament.join", "handle": "a", "place": 1}', type=CommandUnion)
    assert msgspec.json.decode(b'{"type": "tournament.start"}', type=CommandUnion) == Start()


def test_joining_fills_open_places_until_full() -> None:
    """Join takes the first open place; a named place must be open; a full tournament refuses."""
    run = Run()
    create(run, format="swiss", entrants=["a", None, None], seats=2, rounds=2)
    assert run.send(Join(handle="b")) == [PlayerJoined(entrant=1, handle="b")]
    assert refused(run, Join(handle="c", entrant=1)) == "place-taken"
    assert refused(run, Join(handle="a")) == "already-entered"
    assert refused(run, Start()) == "places-open"
    run.send(Join(handle="c"))
    assert refused(run, Join(handle="d")) == "tournament-full"
    run.send(Start())
    assert refused(run, Join(handle="d")) == "not-open"
    assert refused(run, Start()) == "already-started"


def test_an_open_place_can_be_closed_before_the_start() -> None:
    """Withdrawing an open place closes it: the tournament starts without it, and nobody can join it."""
    run = Run()
    create(run, format="round-robin", entrants=["a", "b", None], seats=2)
    run.send(Withdraw(entrant=2))
    assert refused(run, Join(handle="c")) == "tournament-full"
    run.send(Start())
    assert run.now.order in ((0, 1), (1, 0))


def test_start_needs_a_table_full() -> None:
    """Entrants who cannot fill one table cannot start."""
    run = Run()
    create(run, format="swiss", entrants=["a", "b", "c"], seats=4, rounds=2)
    assert refused(run, Start()) == "too-few-entrants"


def test_results_and_rounds() -> None:
    """A result names the table's entrants once; the round ends only when every table has one."""
    run = Run()
    create(run, format="swiss", entrants=["a", "b", "c", "d"], seats=2, rounds=2)
    assert refused(run, Advance()) == "not-started"
    run.send(Start())
    (a, b), (c, d) = run.now.rounds[0].tables
    win = (EntrantResult(entrant=a, rank=1), EntrantResult(entrant=b, rank=2))
    assert refused(run, Advance()) == "round-not-over"
    assert refused(run, RecordResult(round=2, table=0, results=win)) == "not-current-round"
    assert refused(run, RecordResult(round=1, table=5, results=win)) == "no-such-table"
    assert refused(run, RecordResult(round=1, table=1, results=win)) == "bad-result"
    assert refused(run, RecordResult(round=1, table=0, results=win[:1])) == "bad-result"
    assert refused(run, RecordResult(round=1, table=0, results=(win[0], EntrantResult(entrant=b, rank=0)))) \
        == "bad-result"
    run.send(OpenTable(round=1, table=0, match_id="m0"))
    assert refused(run, OpenTable(round=1, table=0, match_id="m9")) == "table-already-opened"
    assert refused(run, RecordResult(round=1, table=0, results=win, match_id="m9")) == "wrong-match"
    run.send(RecordResult(round=1, table=0, results=win, match_id="m0"))
    assert refused(run, RecordResult(round=1, table=0, results=win, match_id="m0")) == "result-already-recorded"
    assert refused(run, Advance()) == "round-not-over"
    run.send(RecordResult(round=1, table=1, results=(EntrantResult(entrant=c, rank=1),
                                                     EntrantResult(entrant=d, rank=1))))
    ended, paired = run.send(Advance())
    assert type(ended).__name__ == "RoundEnded" and type(paired).__name__ == "RoundPaired"


def test_a_finished_tournament_refuses_everything() -> None:
    """tournament-finished."""
    run = Run()
    create(run, format="knockout", entrants=["a", "b"], seats=2)
    run.send(Start())
    (a, b), = run.now.rounds[0].tables
    run.send(RecordResult(round=1, table=0, results=(EntrantResult(entrant=a, rank=2),
                                                     EntrantResult(entrant=b, rank=1))))
    run.send(Advance())
    assert run.now.finished and run.now.final is not None and run.now.final[0].entrant == b
    assert refused(run, Advance()) == "tournament-finished"
    assert refused(run, Join(handle="z")) == "tournament-finished"


def test_two_advances_on_one_state_agree_and_the_retry_is_refused() -> None:
    """Two processes deciding `advance` on the same state derive the same events (the store keeps one: expected
    version); the loser, retried on the new state, is refused `round-not-over`: the round advances exactly once."""
    run = Run()
    create(run, format="swiss", entrants=["a", "b", "c", "d"], seats=2, rounds=3)
    run.send(Start())
    for number, (a, b) in enumerate(run.now.rounds[0].tables):
        run.send(RecordResult(round=1, table=number, results=(EntrantResult(entrant=a, rank=1),
                                                              EntrantResult(entrant=b, rank=2))))
    rng_round = Rng.derive(run.seed, 2)
    first = decide(run.now, Advance(), rng_round)
    assert decide(run.now, Advance(), Rng.derive(run.seed, 2)) == first
    run.send(Advance())
    assert run.events[-2:] == first
    assert refused(run, Advance()) == "round-not-over"
