"""The contract every game fulfils: a record of pure functions, plus the shared vocabulary.

A game never does I/O, never reads a clock and never touches global random state: randomness
arrives as an `Rng` and every random outcome is written into an event, so `evolve` is a plain fold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec

from domain.rng import Rng

if TYPE_CHECKING:  # the annotation is all Game needs of it
    from domain.edition import Edition


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every command: what a seat asks to do. The tag (`type`) is namespaced: `game.verb`."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event: a fact that happened. Decoding tolerates fields added later."""


class Refusal(Exception):
    """`decide` refused a command. `code` is stable and machine-readable; `message` is for people.

    The one way a game refuses: `raise Refusal("not-your-turn", "it is seat 1's turn")`. A refusal raised part-way
    through a decision writes nothing.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class SeatResult(msgspec.Struct, frozen=True, kw_only=True):
    """How one seat finished: rank 1 is best, equal ranks are ties."""

    seat: int
    rank: int
    score: float
    winner: bool


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """The end of a match. `cooperative` games share one result; `team_won` says which."""

    reason: str
    results: tuple[SeatResult, ...]
    cooperative: bool = False
    team_won: bool | None = None


class Narrator:
    """A game's narration: the sentence for each of its event types (`types`: the ones it can tell)."""

    def __init__(self, tellers: Mapping[type[Event], Callable[[Any, Sequence[str]], str]]) -> None:
        self._tellers = dict(tellers)
        self.types = frozenset(self._tellers)

    def __call__(self, event: Event, names: Sequence[str]) -> str:
        """The event, as given, in one sentence."""
        return self._tellers[type(event)](event, names)


S = TypeVar("S")


@dataclass(frozen=True)
class Lookahead:
    """Looks one move ahead on a few tables sampled from its own seat's view, for the best score margin.

    The generic `greedy` bot's settings (the catalog shows the line above; domain/greedy.py plays it), here beside
    `Game` so that a game's record names it without the rules of play importing the bot. A game lists it in
    `Game.bots` (`("greedy", Lookahead())`); domain/bots.py binds it to the game record (edition) that plays it.
    `samples`: tables drawn a decision. `worth`: a game's own count of each seat's position on a table not yet over,
    where its score alone misleads a one-move look (Expect Delays: points not yet Disembarked); None: the scores."""

    samples: int = 4
    worth: Callable[[Any], Sequence[float]] | None = None


@dataclass(frozen=True, kw_only=True, eq=False)  # identity: a game is one registered record
class Game(Generic[S]):
    """A game is a record of functions, registered once in `domain.catalog.GAMES`.

    - `start(options, seat_count, rng)` -> the set-up events (after `match.started`).
    - `evolve(state | None, event)` -> the next state; `None` is the state before set-up.
    - `decide(state, seat, command, rng)` -> events, or raises `Refusal`.
    - `legal(state, seat)` -> every command the seat may send now, fully enumerated.
    - `to_move(state)` -> the seats that may act now (several at once for simultaneous play).
    - `view(state, seat | None)` -> what that seat (None: a spectator) may see, JSON-ready.
    - `redact(event, seat | None)` -> the event as that seat may see it.
    - `outcome(state)` -> the `Outcome` once the game is over, else None.
    - `scores(state)` -> each seat's current score (used to rank the others when a seat resigns).
    - `hidden_from(state, seat)` -> tokens (card ids) that seat (None: a spectator) must not learn now.
    - `scramble(state, seat, rng)` -> a state differing only in what `seat` (None: a spectator) cannot see.
    - `determinize(state, seat, rng)` -> a state drawn from what `seat` sees alone (a search bot's sample).
    - `render(state)` -> a plain-text picture of the table.
    - `describe(event, names)` -> the event, as given (redacted or not), in one sentence (domain/narration.py).

    `bots` names the game's own bot policies beside the generic `random` one (domain/bots.py): each maps
    `(state, seat, rng)` to a command `legal` lists for that seat, or is a `Lookahead` (above), the generic one-move
    bot that domain/bots.py binds to the game record and domain/greedy.py plays. `idle` names the game's do-nothing
    commands.
    """

    slug: str
    title: str
    min_seats: int
    max_seats: int
    options_type: type[msgspec.Struct]
    command_types: tuple[type[Command], ...]
    event_types: tuple[type[Event], ...]
    cooperative: bool = False
    default_data: tuple[str, ...] = ()
    deviations: tuple[str, ...] = ()
    # The edition this record plays (domain/editions.py): its number and its switches (a frozen Struct of the game's
    # `Rules`; None: the rules have none). A game's package lists every edition in `editions.py`, oldest first;
    # domain.catalog binds one record per edition.
    rules_version: str = "1"
    rules: msgspec.Struct | None = None
    editions: tuple[Edition, ...] = ()
    # (seat count, options) pairs the conformance suite plays; empty means min and max seats, default options.
    sample_setups: tuple[tuple[int, dict[str, Any]], ...] = ()
    bots: tuple[tuple[str, Callable[[S, int, Rng], Command] | Lookahead], ...] = ()
    # How many times the reference iterations each search level (domain/bots.py) affords in this game: its rules
    # step fast enough to search more in the same time (bench/bots.py).
    search_scale: int = 1
    # A cooperative game's estimate in [0, 1] of how near the team is to winning a table that has not ended (a search
    # rollout cut off at its cap, domain/search.py); None: the search uses the team's score.
    evaluate: Callable[[S], float] | None = None
    # Commands that do nothing for a seat (a pass), played for a seat that misses its deadline when legal.
    idle: tuple[type[Command], ...] = ()
    start: Callable[[Any, int, Rng], Sequence[Event]]
    evolve: Callable[[S | None, Event], S]
    decide: Callable[[S, int, Command, Rng], Sequence[Event]]
    legal: Callable[[S, int], Sequence[Command]]
    to_move: Callable[[S], Sequence[int]]
    view: Callable[[S, int | None], Any]
    redact: Callable[[Event, int | None], Event]
    outcome: Callable[[S], Outcome | None]
    scores: Callable[[S], Sequence[float]]
    hidden_from: Callable[[S, int | None], frozenset[str]]
    scramble: Callable[[S, int | None, Rng], S]
    determinize: Callable[[S, int, Rng], S]
    render: Callable[[S], str]
    describe: Narrator


def setups(game: Game[Any]) -> tuple[tuple[int, dict[str, Any]], ...]:
    """The (seat count, options) pairs a game is exercised with in tests."""
    if game.sample_setups:
        return game.sample_setups
    return tuple((n, {}) for n in sorted({game.min_seats, game.max_seats}))


class Decision(Generic[S]):
    """A decision in progress: the events accepted so far, and `state`, the table they lead to.

    `decide` emits one fact at a time and judges the next step on the table as it now stands, so it reads in the
    rulebook's order (Upkeep sees the hand the last action left). Raising `Refusal` part-way discards it all.
    """

    def __init__(self, state: S, evolve: Callable[[S, Event], S]) -> None:
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, *events: Event) -> None:
        """Record facts, in order, and fold each into `state`."""
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)


def competition_ranks(scores: Sequence[tuple[Any, ...]]) -> list[int]:
    """Standard competition ranking (1, 2, 2, 4) of comparable keys, higher is better."""
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def ranked_results(keys: Sequence[tuple[Any, ...]], scores: Sequence[float]) -> tuple[SeatResult, ...]:
    """Seat results ranked by `keys` (higher is better; the first element usually the score)."""
    ranks = competition_ranks(keys)
    return tuple(
        SeatResult(seat=seat, rank=rank, score=float(scores[seat]), winner=rank == 1)
        for seat, rank in enumerate(ranks)
    )
