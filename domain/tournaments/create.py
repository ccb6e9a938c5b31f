"""Judging `tournament.create`: the game, its edition and seats, the format and the entrants (stable refusal codes
in domain/tournaments/README.md)."""

from __future__ import annotations

from typing import Any

from domain import bots, catalog, timing
from domain.editions import UnknownEdition
from domain.engine import Game, Refusal
from domain.lifecycle import VISIBILITIES
from domain.match import recorded_options
from domain.tournaments.commands import CreateTournament, EntrantSpec, EntryOf
from domain.tournaments.events import FORMATS, Entrant, TournamentCreated

SEEDINGS = ("random", "entry")
# The match options a tournament sets itself (`move_deadline` is its own field; a tournament's match is never
# abandoned, it is forfeited). The deal's `entropy` and `entropy_deadline` pass to every match (fair deals).
TIMED_ELSEWHERE = set(timing.NAMES) - {"entropy", "entropy_deadline"}


def game_of(slug: str, rules_version: str | None) -> Game[Any]:
    """The game record the tournament's matches are played under, or a refusal."""
    try:
        game = catalog.by_slug(slug) if rules_version is None else catalog.edition(slug, rules_version)
    except UnknownEdition as exc:
        raise Refusal("unknown-edition", str(exc)) from exc
    if game is None:
        raise Refusal("unknown-game", f"no game is called {slug!r}")
    return game


def entrant_of(spec: EntrantSpec, game: Game[Any], seats: int) -> Entrant:
    """One entrant from its spec: a handle, a bot, a team (cooperative games only) or an open place."""
    if spec is None:
        return Entrant()
    if isinstance(spec, str):
        if not spec or ":" in spec:  # a colon marks a bot (domain/bots.py)
            raise Refusal("bad-entrant", f"{spec!r} is not a player handle")
        return Entrant(handle=spec)
    return _entry_of(spec, game, seats)


def _entry_of(spec: EntryOf, game: Game[Any], seats: int) -> Entrant:
    if spec.bot is not None and spec.team is None and not spec.members:
        if spec.bot not in bots.names(game):
            raise Refusal("unknown-bot", f"{game.slug} has no bot {spec.bot!r}; it has {', '.join(bots.names(game))}")
        if not spec.name:
            raise Refusal("bad-entrant", "a bot entrant needs its own name")
        return Entrant(bot=spec.bot, name=spec.name)
    if spec.team and spec.bot is None and spec.name is None:
        if not game.cooperative:
            raise Refusal("bad-entrant", f"{game.slug} is not cooperative: its entrants are players, not teams")
        check_members(spec.members, seats)
        return Entrant(handle=spec.team, members=spec.members)
    raise Refusal("bad-entrant", "an entrant is a handle, {bot, name}, {team, members} or null (an open place)")


def check_members(members: tuple[str, ...], seats: int) -> None:
    """A team's members hold its seats: one member a seat, all different."""
    if len(members) != seats or len(set(members)) != seats or not all(members):
        raise Refusal("bad-entrant", f"a team has one member for each of its {seats} seats, all different")


def identity(entrant: Entrant) -> str:
    """What no two entrants may share: a handle, or a bot's name."""
    return entrant.handle if entrant.handle is not None else f"bot:{entrant.name}"


def people(entrant: Entrant) -> tuple[str, ...]:
    """Who an entrant is: its handle or bot name, and a team's members."""
    return () if entrant.open else (identity(entrant), *entrant.members)


def check_distinct(entrants: tuple[Entrant, ...]) -> None:
    """Nobody enters twice: handles, bot names and team members all differ."""
    names = [name for e in entrants for name in people(e)]
    if len(set(names)) != len(names):
        raise Refusal("duplicate-entrant", "every entrant (and every team member) is a different player or bot")


def create(command: CreateTournament) -> TournamentCreated:
    """`tournament.created` from a create command, or a refusal."""
    game = game_of(command.game, command.rules_version)
    if command.format not in FORMATS:
        raise Refusal("bad-format", f"a format is one of {', '.join(FORMATS)}, not {command.format!r}")
    if not game.min_seats <= command.seats <= game.max_seats:
        raise Refusal("bad-seat-count", f"{game.slug} takes {game.min_seats}-{game.max_seats} seats")
    if not game.cooperative and command.seats < 2:
        raise Refusal("bad-seat-count", "a competitive tournament's tables seat two entrants at least")
    table_size = command.table_size or (2 if game.cooperative else command.seats)
    if table_size < 2 or (not game.cooperative and table_size != command.seats):
        raise Refusal("bad-table-size", "a table is the match's seats (cooperative: 2 or more teams)")
    swiss = command.format == "swiss"
    if swiss != (command.rounds is not None) or (swiss and (command.rounds or 0) < 1):
        raise Refusal("bad-rounds", "a Swiss tournament names its rounds (1 or more); the other formats derive theirs")
    advance = _advance(command, table_size)
    if command.seeding not in SEEDINGS or command.visibility not in VISIBILITIES:
        raise Refusal("bad-option", f"seeding is one of {SEEDINGS}, visibility one of {VISIBILITIES}")
    if command.move_deadline is not None and command.move_deadline < 1:
        raise Refusal("bad-option", "a move deadline is a number of seconds, 1 or more")
    if set(command.options) & TIMED_ELSEWHERE:
        raise Refusal("bad-options", "a tournament's move deadline is its own field, not one of the game's options")
    _, options = recorded_options(game, command.options)
    entrants = tuple(entrant_of(spec, game, command.seats) for spec in command.entrants)
    if len(entrants) < 2:
        raise Refusal("too-few-entrants", "a tournament has two entrants at least")
    check_distinct(entrants)
    return TournamentCreated(
        game=game.slug, rules_version=game.rules_version, format=command.format, seats=command.seats,
        table_size=table_size, entrants=entrants, seed_commitment=command.seed_commitment, options=options,
        rounds=command.rounds, advance=advance, seeding=command.seeding, cooperative=game.cooperative,
        visibility=command.visibility, move_deadline=command.move_deadline,
    )


def _advance(command: CreateTournament, table_size: int) -> int:
    """Knockout: how many of a table go on (default 1 at 2-entrant tables, else half of it, rounded up)."""
    if command.format != "knockout":
        if command.advance is not None:
            raise Refusal("bad-advance", "only a knockout advances entrants")
        return 1
    advance = command.advance or (1 if table_size == 2 else -(-table_size // 2))
    if not 1 <= advance < table_size:
        raise Refusal("bad-advance", f"1 to {table_size - 1} of each table of {table_size} can go on")
    return advance
