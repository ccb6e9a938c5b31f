"""A match: one game's stream wrapped in the shared lifecycle (opened, seat joined, started, entropy added and
closed, timed out, resigned, ended).

`open_match`, `evolve`, `decide` here are what the service calls; they delegate the rules to the
game record and add the lifecycle events themselves, so no game writes `match.ended`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from domain import timing
from domain.engine import Command, Decision, Event, Game, Outcome, Refusal, SeatResult, competition_ranks
from domain.lifecycle import (
    Abandon,
    AcceptDraw,
    AddEntropy,
    Cancel,
    Deal,
    DrawAccepted,
    DrawOffered,
    EntropyAdded,
    EntropyClosed,
    Join,
    MatchEnded,
    MatchOpened,
    MatchStarted,
    OfferDraw,
    Resign,
    SeatJoined,
    SeatResigned,
    TimedOut,
    TimeOut,
    is_bot,
)
from domain.rng import Rng, seed_commitment


class MatchState(msgspec.Struct, frozen=True, kw_only=True):
    """The fold of a match's events: lifecycle facts plus the game's own state."""

    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    version: int
    rules_version: str = ""  # the edition the match is played under (domain/editions.py), from its first event
    game_state: Any = None
    resigned: tuple[int, ...] = ()
    ended: MatchEnded | None = None
    opened: MatchOpened | None = None  # while seats are open (players holds "" for each): how it will start
    rematch_of: str | None = None
    # With a move deadline: per seat, the version whose event put it to move (0: not to move). The service reads
    # that event's recorded time, so a deadline is derived from the record and replays the same.
    since: tuple[int, ...] = ()
    draw: tuple[int, ...] = ()  # the seats agreeing to the draw on offer (none: no offer stands)
    # With `entropy: "seats"`: each seat's entropy as added (None: not yet; () before any), whether it is closed (the
    # deal follows), and the version of `match.started`, from whose recorded time `entropy_deadline` runs.
    entropy: tuple[str | None, ...] = ()
    entropy_closed: bool = False
    started_version: int = 0

    @property
    def finished(self) -> bool:
        """True once `match.ended` has been recorded."""
        return self.ended is not None

    @property
    def waiting(self) -> bool:
        """True while the match waits for players to fill its open seats (not started, not cancelled)."""
        return self.opened is not None and self.ended is None

    @property
    def seats_entropy(self) -> bool:
        """True for a match whose deal waits for its seats' entropy (option `entropy: "seats"`)."""
        return self.options.get("entropy") == "seats"

    @property
    def dealing(self) -> bool:
        """True while a started `entropy: "seats"` match waits for its seats' entropy (no deal yet)."""
        return self.seats_entropy and not self.entropy_closed and not self.waiting and self.ended is None

    @property
    def seat_entropy(self) -> tuple[str | None, ...]:
        """Each seat's entropy so far (None: none yet)."""
        return self.entropy or (None,) * len(self.players)


def recorded_options(game: Game[Any], raw: dict[str, Any] | None) -> tuple[Any, dict[str, Any]]:
    """The game's typed options, and the options object a match records: the game's, then the match's."""
    own, ours = timing.split(raw)
    try:
        # Strict, as the bodies around them: "12" is not a number of turns, nor "true" a yes.
        options = msgspec.convert(own, game.options_type, strict=True)
    except msgspec.ValidationError as exc:
        raise Refusal("bad-options", f"options for {game.slug}: {exc}") from exc
    return options, {**msgspec.to_builtins(options), **timing.builtins(ours)}


def open_match(game: Game[Any], players: Sequence[str | None], raw_options: dict[str, Any] | None, seed: str, *,
               seed_source: str = "server", client_entropy: str | None = None,
               visibility: str = "public", rematch_of: str | None = None, server_seed_commitment: str | None = None,
               server_entropy: Mapping[int, str] | None = None) -> list[Event]:
    """The first events of a new match: `match.started`, then the game's set-up; or, when some seats are open
    (None), only `match.opened`: the set-up waits until the last seat is taken.

    With option `entropy: "seats"` there is no set-up yet: the first event publishes `server_seed_commitment`, and
    `server_entropy` (the entropy the server drew for each bot's seat: every bot's, and only bots') follows as
    `match.entropy-added`; the deal comes with `match.deal`. `seed` is then the server's part (it salts the
    commitments; the deal's seed is `rng.deal_seed` of it and the seats' entropy)."""
    if not game.min_seats <= len(players) <= game.max_seats:
        raise Refusal(
            "bad-seat-count", f"{game.slug} takes {game.min_seats}-{game.max_seats} seats, not {len(players)}"
        )
    options, recorded = recorded_options(game, raw_options)
    provenance = _provenance(seed_source, client_entropy, visibility, rematch_of, server_seed_commitment)
    seats_entropy = recorded.get("entropy") == "seats"
    if seats_entropy and server_seed_commitment is None:
        raise Refusal("bad-options", "`entropy: \"seats\"` needs the server's part committed to first")
    if seats_entropy and set(server_entropy or {}) != {s for s, p in enumerate(players) if is_bot(p)}:
        # A bot's seat never adds its own (`bot-seat`): were it silent here, the server could pick it after reading
        # the people's entropy. And no person's seat has entropy the server drew.
        raise ValueError("`entropy: \"seats\"`: the server draws the entropy of every bot's seat, and of no other, "
                         "when the match is created")
    drawn: list[Event] = [EntropyAdded(seat=s, entropy=e, source="server")
                          for s, e in sorted((server_entropy or {}).items())] if seats_entropy else []
    if None in players:
        return [MatchOpened(game=game.slug, rules_version=game.rules_version, seats=tuple(players),
                            options=recorded, seed_commitment=seed_commitment(seed), **provenance), *drawn]
    started = MatchStarted(game=game.slug, rules_version=game.rules_version, players=tuple(p or "" for p in players),
                           options=recorded, seed_commitment=seed_commitment(seed), **provenance)
    if seats_entropy:
        return [started, *drawn]
    return [started, *game.start(options, len(players), Rng.derive(seed, 0))]


def _provenance(seed_source: str, client_entropy: str | None, visibility: str,
                rematch_of: str | None, server_seed_commitment: str | None = None) -> dict[str, Any]:
    # Only values other than the defaults are passed: msgspec leaves a field out by identity with its default, and
    # a "server" decoded from a record is another string object than the literal.
    provenance: dict[str, Any] = {} if seed_source == "server" else {"seed_source": seed_source}
    if client_entropy is not None:
        provenance["client_entropy"] = client_entropy
    if visibility != "public":
        provenance["visibility"] = visibility
    if rematch_of is not None:
        provenance["rematch_of"] = rematch_of
    if server_seed_commitment is not None:
        provenance["server_seed_commitment"] = server_seed_commitment
    return provenance


def started_event(game: Game[Any], players: Sequence[str], options: dict[str, Any], commitment: str, *,
                  seed_source: str, client_entropy: str | None, visibility: str,
                  rematch_of: str | None = None, server_seed_commitment: str | None = None) -> MatchStarted:
    """`match.started` of a match: its game, players, recorded options and seed commitment, and its provenance."""
    return MatchStarted(game=game.slug, rules_version=game.rules_version, players=tuple(players),
                        options=options, seed_commitment=commitment,
                        **_provenance(seed_source, client_entropy, visibility, rematch_of, server_seed_commitment))


def evolve(game: Game[Any], state: MatchState | None, event: Event) -> MatchState:
    """Apply one event. Lifecycle events are handled here; all others go to the game."""
    if state is None:
        if isinstance(event, MatchStarted):
            return MatchState(game=event.game, players=event.players, options=event.options, version=1,
                              rules_version=event.rules_version, rematch_of=event.rematch_of, started_version=1)
        if isinstance(event, MatchOpened):
            return MatchState(game=event.game, players=tuple(p or "" for p in event.seats), options=event.options,
                              version=1, rules_version=event.rules_version, opened=event, rematch_of=event.rematch_of)
        raise ValueError("a match stream must begin with match.started or match.opened")
    version = state.version + 1
    if isinstance(event, MatchOpened) or (isinstance(event, (MatchStarted, SeatJoined)) and not state.waiting):
        raise ValueError(f"{event.__struct_config__.tag} only follows match.opened, before the start")
    if isinstance(event, SeatJoined):
        players = tuple(event.player if s == event.seat else p for s, p in enumerate(state.players))
        return msgspec.structs.replace(state, version=version, players=players)
    if isinstance(event, MatchStarted):
        return msgspec.structs.replace(state, version=version, players=event.players, opened=None,
                                       started_version=version)
    if isinstance(event, EntropyAdded):
        if state.entropy_closed or not state.seats_entropy:
            raise ValueError("match.entropy-added only comes before match.entropy-closed, in an entropy: seats match")
        entropy = tuple(event.entropy if s == event.seat else e for s, e in enumerate(state.seat_entropy))
        return msgspec.structs.replace(state, version=version, entropy=entropy)
    if isinstance(event, EntropyClosed):
        return msgspec.structs.replace(state, version=version, entropy_closed=True)
    if isinstance(event, SeatResigned):
        return msgspec.structs.replace(state, version=version, resigned=(*state.resigned, event.seat))
    if isinstance(event, MatchEnded):
        return msgspec.structs.replace(state, version=version, ended=event)
    if isinstance(event, TimedOut):
        return msgspec.structs.replace(state, version=version)
    if isinstance(event, DrawOffered | DrawAccepted):
        return msgspec.structs.replace(state, version=version, draw=(*state.draw, event.seat))
    if state.seats_entropy and not state.entropy_closed:
        raise ValueError(f"{event.__struct_config__.tag} before the deal: the seats' entropy is not closed")
    game_state = game.evolve(state.game_state, event)  # a move: any draw offer lapses
    if not state.options.get("move_deadline"):
        return msgspec.structs.replace(state, version=version, game_state=game_state, draw=())
    since = timing.put_to_move(state.since, game.to_move(game_state), len(state.players), version)
    return msgspec.structs.replace(state, version=version, game_state=game_state, since=since, draw=())


def fold(game: Game[Any], events: Iterable[Event], state: MatchState | None = None) -> MatchState:
    """The state after applying `events` in order (from `state`, or from nothing)."""
    for event in events:
        state = evolve(game, state, event)
    if state is None:
        raise ValueError("no events to fold")
    return state


def to_move(game: Game[Any], state: MatchState) -> list[int]:
    """Seats that may act now; none once the match has ended (or before its set-up is folded)."""
    if state.finished or state.game_state is None:
        return []
    return list(game.to_move(state.game_state))


def legal(game: Game[Any], state: MatchState, seat: int) -> list[Command]:
    """The game's legal commands for `seat` (resigning is always possible too, and not listed)."""
    if state.finished or state.game_state is None:
        return []
    return list(game.legal(state.game_state, seat))


def decide(game: Game[Any], state: MatchState, seat: int | None, command: Command, rng: Rng) -> list[Event]:
    """Accept a command as events (adding `match.ended` when it ends the game) or raise `Refusal`.

    `seat` is None for what the service decides for nobody's seat (calling off an open match).
    """
    if state.finished:
        raise Refusal("match-finished", "the match has ended")
    if isinstance(command, Cancel) and seat is None:
        if not state.waiting and not state.dealing:
            raise Refusal("match-started", "only a match that has not started (or not been dealt) can be called off")
        return [MatchEnded(reason="cancelled", results=())]
    if isinstance(command, Deal) and seat is None:
        return _deal(game, state, rng)
    if isinstance(command, TimeOut) and seat is None:
        return _time_out(game, state, command.seat, rng)
    if isinstance(command, Abandon) and seat is None:
        if not state.options.get("abandon_after"):
            raise Refusal("no-abandon-after", "this match is not closed for want of moves")
        return [MatchEnded(reason="abandoned", results=())]
    if seat is None or not 0 <= seat < len(state.players):
        raise Refusal("no-such-seat", f"seat {seat} is not at this match")
    if isinstance(command, AddEntropy):
        return _add_entropy(state, seat, command.entropy)
    if state.waiting:
        return _join(game, state, seat, command, rng)
    if isinstance(command, (Join, Cancel, TimeOut, Abandon, Deal)):
        raise Refusal("match-started", "the match has started: its seats are taken")
    if state.dealing:
        raise Refusal("match-dealing", "the match waits for its seats' entropy: nothing is dealt yet")
    if isinstance(command, Resign):
        return [SeatResigned(seat=seat), resignation_end(game, state, seat)]
    if isinstance(command, OfferDraw | AcceptDraw):
        return _draw(game, state, seat, command)
    if not isinstance(command, game.command_types):
        raise Refusal("wrong-game", f"{command.__struct_config__.tag!r} is not a {game.slug} command")
    decision = Decision(state.game_state, game.evolve)
    decision.emit(*game.decide(state.game_state, seat, command, rng))
    outcome = game.outcome(decision.state)
    return decision.events if outcome is None else [*decision.events, ended_event(outcome)]


def _join(game: Game[Any], state: MatchState, seat: int, command: Command, rng: Rng) -> list[Event]:
    """A player takes open seat `seat`; the join that fills the last seat starts the match (its set-up draws from
    `rng`, the decision's own)."""
    opened = state.opened
    assert opened is not None
    if not isinstance(command, Join):
        raise Refusal("match-not-started", "the match waits for its open seats to be taken")
    if state.players[seat]:
        raise Refusal("seat-taken", f"seat {seat} is already taken")
    if state.seats_entropy and is_bot(command.player):
        raise Refusal("bot-seat", "a bot is seated when an `entropy: \"seats\"` match is created (the server draws "
                                  "its entropy then, before any seat's), not by a join")
    joined = SeatJoined(seat=seat, player=command.player)
    players = tuple(command.player if s == seat else p for s, p in enumerate(state.players))
    if not all(players):
        return [joined]
    options, recorded = recorded_options(game, opened.options)
    started = started_event(game, players, recorded, opened.seed_commitment, seed_source=opened.seed_source,
                            client_entropy=opened.client_entropy, visibility=opened.visibility,
                            rematch_of=opened.rematch_of, server_seed_commitment=opened.server_seed_commitment)
    if state.seats_entropy:  # the deal waits for the seats' entropy (`match.deal`)
        return [joined, started]
    return [joined, started, *game.start(options, len(players), rng)]


MAX_ENTROPY = 256  # characters of one seat's entropy


def _add_entropy(state: MatchState, seat: int, entropy: str) -> list[Event]:
    """Seat `seat` adds its entropy for the deal: once, before the deal, only in an `entropy: "seats"` match, and
    never a bot's seat (the server drew its entropy at creation: a bot left silent then, its entropy chosen after
    the people's was public, would let the server choose the deal)."""
    if not state.seats_entropy:
        raise Refusal("no-seat-entropy", "this match takes no entropy from its seats (option `entropy: \"seats\"`)")
    if state.entropy_closed:
        raise Refusal("entropy-closed", "the seats' entropy is closed: the match has been dealt")
    if is_bot(state.players[seat]):
        raise Refusal("bot-seat", f"seat {seat} is a bot's: its entropy is the server's, drawn when the match was "
                                  f"created, never added by a command")
    if state.waiting and not state.players[seat]:
        raise Refusal("seat-open", f"seat {seat} is open: it adds its entropy once joined")
    if state.seat_entropy[seat] is not None:
        raise Refusal("entropy-already-added", f"seat {seat} has added its entropy already (once per seat)")
    if not 1 <= len(entropy) <= MAX_ENTROPY or "\x00" in entropy:
        raise Refusal("bad-entropy", f"entropy is 1-{MAX_ENTROPY} characters, none of them NUL")
    return [EntropyAdded(seat=seat, entropy=entropy)]


def _deal(game: Game[Any], state: MatchState, rng: Rng) -> list[Event]:
    """Close the seats' entropy and deal from `rng` (the service's, derived from `rng.deal_seed`). The seats that
    sent none are recorded absent; whether their time had run out is the service's to judge (and the verifier's,
    from the recorded times)."""
    if not state.seats_entropy:
        raise Refusal("no-seat-entropy", "this match takes no entropy from its seats (option `entropy: \"seats\"`)")
    if state.waiting:
        raise Refusal("match-not-started", "the match waits for its open seats to be taken")
    if not state.dealing:
        raise Refusal("entropy-closed", "the seats' entropy is closed: the match has been dealt")
    options, _ = recorded_options(game, state.options)
    absent = tuple(s for s, e in enumerate(state.seat_entropy) if e is None)
    return [EntropyClosed(absent=absent), *game.start(options, len(state.players), rng)]


def _time_out(game: Game[Any], state: MatchState, seat: int, rng: Rng) -> list[Event]:
    """Seat `seat` missed its deadline: `match.timed-out`, then the game's rule. A legal idle command of the game
    (`Game.idle`: Metro X's pass) is played for it; else the match is lost (cooperative) or the seat resigns.

    The time is the service's to judge (and the verifier's, from the recorded times): the rules check the rest.
    """
    if state.waiting:
        raise Refusal("match-not-started", "the match waits for its open seats to be taken")
    if not state.options.get("move_deadline"):
        raise Refusal("no-deadline", "this match has no move deadline")
    if seat not in to_move(game, state):
        raise Refusal("not-to-move", f"seat {seat} is not to move")
    timed_out = TimedOut(seat=seat)
    idle = next((c for c in game.legal(state.game_state, seat) if isinstance(c, game.idle)), None)
    if idle is not None:
        decision = Decision(state.game_state, game.evolve)
        decision.emit(*game.decide(state.game_state, seat, idle, rng))
        outcome = game.outcome(decision.state)
        return [timed_out, *decision.events, *([] if outcome is None else [ended_event(outcome)])]
    if game.cooperative:
        return [timed_out, resignation_end(game, state, seat, "timed-out")]
    return [timed_out, SeatResigned(seat=seat), resignation_end(game, state, seat, "timed-out")]


def _draw(game: Game[Any], state: MatchState, seat: int, command: OfferDraw | AcceptDraw) -> list[Event]:
    """A draw offer, or its acceptance: when every seat agrees the match ends `draw`, all seats ranked first.
    Competitive games of two seats or more only: a team cannot draw against the game, a solo player with nobody."""
    if game.cooperative or len(state.players) < 2:
        raise Refusal("draw-not-allowed", f"{game.slug} matches of {len(state.players)} seats have no draws")
    if state.game_state is None:
        raise Refusal("match-not-started", "the match has not been set up")
    if seat in state.draw:
        raise Refusal("draw-agreed", f"seat {seat} already agrees to the draw on offer")
    if isinstance(command, OfferDraw):
        if state.draw:
            raise Refusal("draw-offered", "a draw is already on offer: accept it")
        return [DrawOffered(seat=seat)]
    if not state.draw:
        raise Refusal("no-draw-offer", "no draw is on offer")
    accepted: list[Event] = [DrawAccepted(seat=seat)]
    return [*accepted, draw_end(game, state)] if len(state.draw) + 1 == len(state.players) else accepted


def draw_end(game: Game[Any], state: MatchState) -> MatchEnded:
    """The end of a draw by agreement: every seat shares first place (a result: rated as a tie)."""
    scores = list(game.scores(state.game_state))
    return MatchEnded(reason="draw", results=tuple(SeatResult(seat=s, rank=1, score=float(scores[s]), winner=True)
                                                   for s in range(len(scores))))


def ended_event(outcome: Outcome) -> MatchEnded:
    """The lifecycle event recording a game's outcome."""
    return MatchEnded(
        reason=outcome.reason,
        results=outcome.results,
        cooperative=outcome.cooperative,
        team_won=outcome.team_won,
    )


def resignation_end(game: Game[Any], state: MatchState, seat: int, reason: str = "resigned") -> MatchEnded:
    """Seat `seat` resigns (or times out): it ranks last; others rank by their current scores (a team loses
    together)."""
    scores = list(game.scores(state.game_state))
    if game.cooperative:
        results = tuple(SeatResult(seat=s, rank=1, score=float(scores[s]), winner=False) for s in range(len(scores)))
        return MatchEnded(reason=reason, results=results, cooperative=True, team_won=False)
    keys = [(s != seat, scores[s]) for s in range(len(scores))]
    ranks = competition_ranks(keys)
    results = tuple(
        SeatResult(seat=s, rank=ranks[s], score=float(scores[s]), winner=ranks[s] == 1 and s != seat)
        for s in range(len(scores))
    )
    return MatchEnded(reason=reason, results=results)
