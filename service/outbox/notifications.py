"""What apps are told about their matches: created, moved (who is to move now), a seat's turn, ended — from the log.

A follower reads the global log in its order, one append (the events of one transaction) at a time, folds each
match it meets, and turns every append into notifications. Because it works from the log alone, reading from a
position again gives the same notifications, in the same order, with the same ids (the position of the append's
last event): a feed resumed from an id misses nothing and repeats nothing, and the webhooks worker (which folds the
same way) never invents nor loses one.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, Literal, Protocol

import msgspec

from domain import bots, match, narration
from domain.catalog import game_of
from domain.codec import event_from_builtins
from domain.match import MatchState
from ledger.events import StoredEvent
from ledger.records import seen_by
from service.matches.tokens import derived_seat_token
from store.base import EventStore
from store.tournaments import TournamentStore

Kind = Literal["match.created", "moved", "turn", "match.timed-out", "match.ended", "tournament.match-ready"]


class TournamentSeat(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat of a tournament's match: who holds it, and (a person's seat) its token, for the owning app alone."""

    seat: int
    player: str
    token: str | None = None


class TournamentMatch(msgspec.Struct, frozen=True, kw_only=True):
    """Which tournament, round and table a match was opened for, and its seats with their tokens."""

    id: str
    round: int
    table: int
    seats: list[TournamentSeat]


class Notification(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One thing that happened to a match, as anyone watching it may know it (nothing hidden is ever in here).

    `position` is the global position of the append's last event (the id to resume after); `version` the match's
    version after it; `to_move` who may act now; `seat` the seat whose turn it became (kind `turn`); `outcome` the
    recorded end (kind `match.ended`); `text` the append's events in words, as a spectator reads them.
    """

    kind: Kind
    match_id: str
    game: str
    position: int
    version: int
    to_move: list[int] = []
    seat: int | None = None
    outcome: dict[str, Any] | None = None
    rules_version: str = ""  # the rules edition the match is played under
    # Kind `tournament.match-ready` (told only to the app that owns the tournament): the tournament, round and table,
    # and each seat's token, which the app hands to its player.
    tournament: TournamentMatch | None = None
    # The append's events told in words as a spectator reads them (kinds match.created, moved and match.ended).
    text: list[str] = []


def appends(events: list[StoredEvent]) -> list[list[StoredEvent]]:
    """The events cut into appends: runs of one match's consecutive versions from one command (or one creation)."""
    groups: list[list[StoredEvent]] = []
    for event in events:
        last = groups[-1][-1] if groups else None
        if last is not None and last.match_id == event.match_id and last.version + 1 == event.version \
                and last.command_id == event.command_id and last.seat == event.seat and event.version != 1:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


class FollowerStore(EventStore, TournamentStore, Protocol):
    """The follower's port: the global log and matches, and which tournament a match belongs to."""


class Follower:
    """Turns appends of the global log into notifications, folding the matches it meets (a bounded cache)."""

    def __init__(self, store: FollowerStore, remembered: int = 1024) -> None:
        self.store = store
        self._states: OrderedDict[str, MatchState] = OrderedDict()
        self._remembered = remembered

    def read(self, after: int, *, owner: str | None = None, limit: int = 500) -> tuple[list[Notification], int]:
        """Notifications of the complete appends after position `after` (of `owner`'s matches only, if given), and
        the position to read after next time."""
        told, cursor = self.read_appends(after, owner=owner, limit=limit)
        return [note for _, notes in told for note in notes], cursor

    def read_appends(self, after: int, *, owner: str | None = None,
                     limit: int = 500) -> tuple[list[tuple[list[StoredEvent], list[Notification]]], int]:
        """Each complete append after position `after` (of `owner`'s matches only, if given) with its notifications,
        and the position to read after next time."""
        events = self.store.read_all(after, limit, owner=owner)
        groups = appends(events)
        while len(events) == limit and len(groups) == 1:  # one append longer than the page: read all of it
            limit *= 2
            events = self.store.read_all(after, limit, owner=owner)
            groups = appends(events)
        if len(events) == limit and len(groups) > 1:
            groups = groups[:-1]  # the last append may go on past the page: read it whole next time
        return [(group, self.notifications(group, owner)) for group in groups], \
            groups[-1][-1].position if groups else after

    def notifications(self, group: list[StoredEvent], owner: str | None = None) -> list[Notification]:
        """What one append tells: created / moved / ended, and each seat whose turn it became; to the app `owner`,
        also the seat tokens of a match its tournament opened (`tournament.match-ready`, right after its creation)."""
        told = self._told(group)
        if owner is not None and group[0].version == 1:
            ready = self._ready(group, told[0], owner)
            if ready is not None:
                told.insert(1, ready)
        return told

    def _ready(self, group: list[StoredEvent], created: Notification, owner: str) -> Notification | None:
        """`tournament.match-ready` for a new match of a tournament `owner` owns (None for any other match)."""
        first = group[0]
        link = self.store.tournament_link(first.match_id)
        if link is None or link.owner != owner:
            return None
        players = first.payload.get("players", ())  # `match.started` names every seat's player (none is open)
        seats = [TournamentSeat(seat=seat, player=player, token=None if bots.bot_name(player) is not None
                                else derived_seat_token(link.token_secret, first.match_id, seat))
                 for seat, player in enumerate(players)]
        return msgspec.structs.replace(created, kind="tournament.match-ready", to_move=[], text=[],
                                       tournament=TournamentMatch(id=link.tournament_id, round=link.round,
                                                                  table=link.table, seats=seats))

    def _told(self, group: list[StoredEvent]) -> list[Notification]:
        """What one append tells anyone who may follow the match."""
        first, last = group[0], group[-1]
        record_game = first.payload.get("game") if first.version == 1 else None
        before = None if record_game else self._before(first)
        if record_game:
            game = game_of(record_game, first.payload.get("rules_version"))
        else:
            assert before is not None
            game = game_of(before.game, before.rules_version)
        after = match.fold(game, [event_from_builtins(game, e.payload) for e in group], before)
        self._remember(first.match_id, after)
        moving = match.to_move(game, after)
        shown = bots.shown_names(game, after.players)  # a bot by its level's title, as the API's `text` names it
        told = [narration.words(game, seen_by(game, e, None)[0], shown) for e in group]
        base = Notification(kind="moved", match_id=first.match_id, game=game.slug, position=last.position,
                            version=last.version, to_move=moving, rules_version=game.rules_version)
        # A missed deadline is told first (its seat), then what the game's rule made of it (an end, or play on).
        timed_out = [msgspec.structs.replace(base, kind="match.timed-out", seat=e.payload["seat"])
                     for e in group if e.type == "match.timed-out"]
        if after.ended is not None:
            outcome = msgspec.to_builtins(after.ended)
            return [*timed_out, msgspec.structs.replace(base, kind="match.ended", text=told,
                                                        outcome={k: v for k, v in outcome.items() if k != "type"})]
        waiting = set(match.to_move(game, before)) if before is not None else set()
        kind: Kind = "match.created" if record_game else "moved"
        return [*timed_out, msgspec.structs.replace(base, kind=kind, text=told),
                *(msgspec.structs.replace(base, kind="turn", seat=seat) for seat in moving if seat not in waiting)]

    def _before(self, first: StoredEvent) -> MatchState:
        """The match folded up to just before an append (remembered, or read from the store)."""
        state = self._states.get(first.match_id)
        if state is not None and state.version == first.version - 1:
            return state
        record = self.store.get_match(first.match_id)
        assert record is not None, f"an event of an unknown match {first.match_id}"
        game = game_of(record.game, record.rules_version)
        stored = self.store.read_match(first.match_id, 1, first.version - 1)
        return match.fold(game, [event_from_builtins(game, e.payload) for e in stored])

    def _remember(self, match_id: str, state: MatchState) -> None:
        self._states[match_id] = state
        self._states.move_to_end(match_id)
        while len(self._states) > self._remembered:
            self._states.popitem(last=False)


def encode(notifications: Iterable[Notification]) -> list[bytes]:
    """Each notification as JSON."""
    return [msgspec.json.encode(n) for n in notifications]
