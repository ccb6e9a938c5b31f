"""`decide(state, command, rng)`: a tournament command accepted as events, or a `Refusal` with a stable code.

`rng` is `Rng.derive(seed, r)` with r the round the command may pair (`pairing_round(state)`): round 1 for `start`,
the next round for `advance`. Only those two draw; every draw is written into the events they return.
"""

from __future__ import annotations

from domain.engine import Command, Decision, Event, Refusal
from domain.rng import Rng
from domain.tournaments import formats
from domain.tournaments.commands import Advance, CreateTournament, Join, OpenTable, RecordResult, Start, Withdraw
from domain.tournaments.create import check_members, create, people
from domain.tournaments.events import (
    FORFEITS,
    EntrantResult,
    MatchResult,
    PlayerJoined,
    PlayerWithdrawn,
    RoundEnded,
    RoundPaired,
    TableOpened,
    TournamentFinished,
    TournamentStarted,
)
from domain.tournaments.standings import standings
from domain.tournaments.state import TournamentState, evolve


def pairing_round(state: TournamentState | None) -> int:
    """The round a command on `state` may pair: the RNG to pass `decide` is `Rng.derive(seed, this)`."""
    return 1 if state is None else len(state.rounds) + 1


def decide(state: TournamentState | None, command: Command, rng: Rng) -> list[Event]:
    """Accept `command` as events or raise `Refusal`."""
    if isinstance(command, CreateTournament):
        if state is not None:
            raise Refusal("already-created", "this tournament exists")
        return [create(command)]
    if state is None:
        raise Refusal("no-tournament", "create the tournament first")
    if state.finished:
        raise Refusal("tournament-finished", "the tournament is over")
    if isinstance(command, Join):
        return [_join(state, command)]
    if isinstance(command, Withdraw):
        return _withdraw(state, command.entrant)
    if isinstance(command, Start):
        return _start(state, rng, command.entropy)
    if not state.started:
        raise Refusal("not-started", "the tournament has not started")
    if isinstance(command, OpenTable):
        return [_open_table(state, command)]
    if isinstance(command, RecordResult):
        return [_record(state, command)]
    if isinstance(command, Advance):
        return _advance(state, rng)
    raise Refusal("wrong-command", f"{type(command).__name__} is not a tournament command")


def _join(state: TournamentState, command: Join) -> PlayerJoined:
    """Fill an open place (the one named, or the first)."""
    if state.started:
        raise Refusal("not-open", "the tournament has started: entries are closed")
    open_places = [i for i, e in enumerate(state.entrants) if e.open and i not in state.withdrawn]
    place = command.entrant if command.entrant is not None else (open_places[0] if open_places else None)
    if place is None:
        raise Refusal("tournament-full", "every place is taken")
    if place not in open_places:
        raise Refusal("place-taken", f"place {place} is not an open place")
    if not command.handle or ":" in command.handle:
        raise Refusal("bad-entrant", f"{command.handle!r} is not a player handle")
    entered = {name for e in state.entrants for name in people(e)}
    if command.handle in entered or entered & set(command.members):
        raise Refusal("already-entered", f"{command.handle} (or a member) already holds a place")
    if command.members:
        if not state.created.cooperative:
            raise Refusal("bad-entrant", "only a cooperative game's tournament takes teams")
        check_members(command.members, state.created.seats)
    return PlayerJoined(entrant=place, handle=command.handle, members=command.members)


def _withdraw(state: TournamentState, entrant: int) -> list[Event]:
    """An entrant leaves (before the start, an open place may be closed so); a table of the current round it has not
    finished is forfeited at once."""
    if not 0 <= entrant < len(state.entrants):
        raise Refusal("no-such-entrant", f"entrant {entrant} is not in this tournament")
    if entrant in state.withdrawn:
        raise Refusal("already-withdrawn", f"entrant {entrant} has withdrawn already")
    events: list[Event] = [PlayerWithdrawn(entrant=entrant)]
    current = state.current
    if current is None:
        return events
    for number, table in enumerate(current.tables):
        done = {r.entrant for r in current.results[number]}
        if entrant in table and entrant not in done:
            events.append(_forfeit(state, current.number, number, entrant, table))
    return events


def _forfeit(state: TournamentState, number: int, table: int, entrant: int, seated: tuple[int, ...]) -> MatchResult:
    """The withdrawal's forfeit of its match: its team alone (cooperative), or the whole table (one match)."""
    opened = state.rounds[number - 1].matches[table]
    if state.created.cooperative:
        match_id = next((m.match_id for m in opened if entrant in m.entrants), "")
        result = EntrantResult(entrant=entrant, won=False, forfeit="withdrawal")
        return MatchResult(round=number, table=table, results=(result,), match_id=match_id)
    results = tuple(EntrantResult(entrant=e, rank=len(seated), forfeit="withdrawal") if e == entrant
                    else EntrantResult(entrant=e, rank=1) for e in seated)
    return MatchResult(round=number, table=table, results=results, match_id=opened[0].match_id if opened else "")


def _start(state: TournamentState, rng: Rng, entropy: str | None) -> list[Event]:
    """Close entries, draw the seeded order and pair round 1 (`rng`: of the played seed, the organiser's `entropy`
    mixed in)."""
    if state.started:
        raise Refusal("already-started", "the tournament has started")
    if any(e.open for i, e in enumerate(state.entrants) if i not in state.withdrawn):
        raise Refusal("places-open", "every place must be filled (or withdrawn) before the start")
    active = state.active()
    if len(active) < max(2, state.created.table_size):
        raise Refusal("too-few-entrants", f"{len(active)} entrants cannot fill a table of {state.created.table_size}")
    order = active if state.created.seeding == "entry" else rng.shuffled(active)
    decision = Decision(state, evolve)
    decision.emit(TournamentStarted(order=order, rounds=formats.planned_rounds(state.created, len(active)),
                                    entropy=entropy))
    decision.emit(_paired(decision.state, 1, rng))
    return decision.events


def _paired(state: TournamentState, number: int, rng: Rng) -> RoundPaired:
    pairing = formats.pair(state, number, rng)
    return RoundPaired(round=number, tables=pairing.tables, byes=pairing.byes)


def _table(state: TournamentState, number: int, table: int) -> tuple[int, ...]:
    """The entrants of a table of the current round, or a refusal."""
    if number != len(state.rounds):
        raise Refusal("not-current-round", f"round {number} is not the current round ({len(state.rounds)})")
    tables = state.rounds[number - 1].tables
    if not 0 <= table < len(tables):
        raise Refusal("no-such-table", f"round {number} has no table {table}")
    return tables[table]


def _open_table(state: TournamentState, command: OpenTable) -> TableOpened:
    """Record the match of a table (cooperative: of one team at it)."""
    seated = _table(state, command.round, command.table)
    opened = state.rounds[command.round - 1].matches[command.table]
    if not command.match_id:
        raise Refusal("bad-match", "a table's match has an id")
    if state.created.cooperative:
        if len(command.entrants) != 1 or command.entrants[0] not in seated:
            raise Refusal("bad-match", "each team at a cooperative table plays its own match: name the team")
        if any(command.entrants[0] in m.entrants for m in opened):
            raise Refusal("table-already-opened", "that team's match is recorded already")
    elif command.entrants not in ((), seated) or opened:
        raise Refusal("table-already-opened" if opened else "bad-match", "a table has one match, for all of it")
    return TableOpened(round=command.round, table=command.table, match_id=command.match_id,
                       entrants=command.entrants if state.created.cooperative else ())


def _record(state: TournamentState, command: RecordResult) -> MatchResult:
    """Record a match's result: every entrant of the table (cooperative: of one team), none recorded before."""
    seated = _table(state, command.round, command.table)
    paired = state.rounds[command.round - 1]
    done = {r.entrant for r in paired.results[command.table]}
    named = [r.entrant for r in command.results]
    if done & set(named):
        raise Refusal("result-already-recorded", "that match's result is recorded already")
    expected = 1 if state.created.cooperative else len(seated)
    if len(named) != expected or len(set(named)) != expected or not set(named) <= set(seated):
        raise Refusal("bad-result", f"a result names {'one team' if expected == 1 else 'every entrant'} of the table")
    if any(r.forfeit not in (None, *FORFEITS) or (not state.created.cooperative and r.rank < 1)
           for r in command.results):
        raise Refusal("bad-result", f"ranks start at 1; a forfeit is one of {', '.join(FORFEITS)}")
    opened = [m.match_id for m in paired.matches[command.table] if not m.entrants or set(m.entrants) <= set(named)]
    if opened and command.match_id not in opened:
        raise Refusal("wrong-match", f"the table's match is {opened[0]}, not {command.match_id}")
    return MatchResult(round=command.round, table=command.table, results=command.results, match_id=command.match_id)


def _advance(state: TournamentState, rng: Rng) -> list[Event]:
    """End the round (standings), then pair the next or finish."""
    current = state.current
    assert current is not None  # started: round 1 is paired with the start
    if not current.over:
        raise Refusal("round-not-over", f"round {current.number} still has tables without results")
    decision = Decision(state, evolve)
    decision.emit(RoundEnded(round=current.number, standings=standings(state)))
    if formats.over_after(decision.state):
        decision.emit(TournamentFinished(standings=decision.state.rounds[-1].standings or ()))
    else:
        decision.emit(_paired(decision.state, current.number + 1, rng))
    return decision.events
