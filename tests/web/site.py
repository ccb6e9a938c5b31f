"""A served Turnstile with a finished match of every game, an active match with its seat tokens, and a match whose
player name is crafted markup: what the browser tests open."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain import match
from domain.catalog import GAMES
from domain.tournaments.commands import CreateTournament, EntryOf
from service.matches.matches import MatchService
from service.matches.simulate import play_random_match, play_random_moves
from service.matches.tokens import new_secret, secret_hash
from service.outbox.notifications import Follower
from service.tournaments.tournaments import TournamentService
from store.factory import open_store
from tests.serving import serving

CRAFTED = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'


@dataclass
class Site:
    """The server's base URL and what was put in its store."""

    base: str
    finished: dict[str, str] = field(default_factory=dict)  # game slug → a finished match
    crowded: dict[int, str] = field(default_factory=dict)  # seats → a finished Metro X match of that many seats
    active: str = ""  # an Expect Delays match in play
    tokens: list[str] = field(default_factory=list)  # its seat tokens, by seat
    crafted: str = ""  # a match one of whose players is named CRAFTED
    dealing: str = ""  # an Expect Delays match with option `entropy: "seats"`, waiting for its seats' entropy
    dealing_tokens: list[str] = field(default_factory=list)
    lobby: str = ""  # an Expect Delays match whose seat 1 is open
    join_code: str = ""  # that seat's join code
    newcomer: str = "hedy"  # a player whose only match is active
    tournament: str = ""  # a finished Swiss of bots, one of them named CRAFTED
    live_tournament: str = ""  # a round robin of people, round 1 being played
    live_match: str = ""  # its round-1 match
    live_token: str = ""  # a seat token of that match (as the owning app's feed told it)
    tournament_matches: int = 0  # how many matches the two tournaments opened (public: the browser lists them)
    # game slug → an unlisted match of "lin" (seat 0) against a random bot, short settings, and lin's seat token
    against_bot: dict[str, tuple[str, str]] = field(default_factory=dict)
    # the same for the games whose table is a click target (cards in the hand), played by clicks on the table
    clickable: dict[str, tuple[str, str]] = field(default_factory=dict)
    searching: str = ""  # an unlisted Expect Delays match of "lin" against `bot:ismcts-3`, the bot's first reply played
    app_key: str = ""  # an app key of app "web-lobby" (the lobby's "New match" form needs one)


def fill(url: str, site: Site) -> None:
    """Plays the matches the tests look at, straight through the match service."""
    store = open_store(url)
    try:
        site.app_key = new_secret("app")
        store.create_app_key("web-lobby", secret_hash(site.app_key))
        service = MatchService(store)
        rng = random.Random(16)
        for game in GAMES:
            # A short Expect Delays (its default is 300 turns): the set-up time of the module stays small.
            options = {"max_turns": 12} if game.slug == "expect-delays" else None
            site.finished[game.slug] = play_random_match(service, game, ["ada", "grace"], rng, options)
        short: dict[str, dict[str, Any]] = {"expect-delays": {"max_turns": 6}, "touched-on": {"max_journeys": 1},
                                            "terminus": {"first_game": True}}
        for game in GAMES:  # unlisted: the listings and filters the other tests count never show them
            opened = service.create(game.slug, ["lin", "bot:random"], short.get(game.slug), visibility="unlisted")
            site.against_bot[game.slug] = (opened.record.id, str(opened.tokens[0]))
        searching = service.create("expect-delays", ["lin", "bot:ismcts-3"], {"max_turns": 6}, visibility="unlisted")
        site.searching = searching.record.id
        while 0 in match.to_move((now := service.load(site.searching)).game, now.state):  # lin's turn (bot: seat 1)
            service.play(site.searching, 0, match.legal(now.game, now.state, 0)[0], expected_version=None,
                         command_id=None)
        service.play_bots(service.load(site.searching), searching=True)  # the bot's reply (no runner here)
        assert 1 not in match.to_move((now := service.load(site.searching)).game, now.state)
        for slug in ("expect-delays", "touched-on"):  # Touched On at its full length: one journey against a random
            # bot can end before the clicks test has played its two cards (its deal is the match's own random seed)
            options = short["expect-delays"] if slug == "expect-delays" else None
            opened = service.create(slug, ["lin", "bot:random"], options, visibility="unlisted")
            site.clickable[slug] = (opened.record.id, str(opened.tokens[0]))
        metro_x = next(game for game in GAMES if game.slug == "metro-x")
        for seats in (4, 6):  # Metro X draws one sheet a seat: the most crowded table of the five games
            players = ["ada", "grace", "ivy", "lin", "mae", "nell"][:seats]
            site.crowded[seats] = play_random_match(service, metro_x, players, rng, {"map": "metro-city"})
        created = service.create("expect-delays", ["ada", "grace"], None)
        site.active, site.tokens = created.record.id, list(created.tokens)
        play_random_moves(service, site.active, rng, 6)
        crafted = service.create("mass-transit", [CRAFTED, "grace"], None)
        site.crafted = crafted.record.id
        play_random_moves(service, site.crafted, rng, 3)
        dealing = service.create("expect-delays", ["ada", "grace"], {"entropy": "seats"})
        site.dealing, site.dealing_tokens = dealing.record.id, list(dealing.tokens)
        lobby = service.create("expect-delays", ["ada", None], {"max_turns": 12})
        site.lobby, site.join_code = lobby.record.id, str(lobby.join_codes[1])
        service.create("touched-on", [site.newcomer, "grace"], None)
        tournaments = TournamentService(store, service)
        bots = tuple(EntryOf(bot="random", name=name) for name in ("r1", "r2", "r3", CRAFTED))
        swiss = tournaments.create("web-tests", CreateTournament(game="touched-on", format="swiss", entrants=bots,
                                                                 seats=2, rounds=2, seed_commitment=""))
        site.tournament = tournaments.start(swiss.loaded.record.id, "web-tests").record.id
        live = tournaments.create("web-tests", CreateTournament(
            game="expect-delays", format="round-robin", entrants=("ada", "grace", "lin"), seats=2,
            seed_commitment="", options={"max_turns": 12}))
        site.live_tournament = live.loaded.record.id
        tournaments.start(site.live_tournament, "web-tests")
        notes, _ = Follower(store).read(0, owner="web-tests", limit=10_000)
        ready = next(n for n in notes if n.kind == "tournament.match-ready" and n.tournament is not None
                     and n.tournament.id == site.live_tournament)
        assert ready.tournament is not None
        site.live_match = ready.match_id
        site.live_token = str(ready.tournament.seats[0].token)
        site.tournament_matches = sum(1 for t in (site.tournament, site.live_tournament)
                                      for e in tournaments.load(t).stored if e.type == "tournament.table-opened")
    finally:
        store.close()


def serve(db: Path) -> Iterator[Site]:
    """`turnstile serve` over a filled SQLite file, until the generator is closed."""
    site = Site(base="")
    fill(f"sqlite:///{db}", site)
    with serving(db) as (base, _):
        site.base = base
        yield site
