"""Tables to draw: a mid-game and an ended match of every game, folded in memory, and how to read a picture."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

import msgspec

from api.web.draw import drawing
from api.web.svg import Moment
from domain import bots, match
from domain.catalog import GAMES
from domain.codec import event_from_builtins
from domain.engine import Game
from domain.match import MatchState
from service.matches.matches import MatchService
from service.matches.model import LoadedMatch
from service.matches.simulate import play_random_moves
from store.factory import open_store

SVG = "{http://www.w3.org/2000/svg}"


@cache
def service() -> MatchService:
    """A match service over an in-memory store, shared by the module's tests."""
    return MatchService(open_store("sqlite:///:memory:"))


@cache
def played(slug: str, moves: int) -> LoadedMatch:
    """A two-seat match of `slug` after up to `moves` random legal moves (seeded: the same table every run)."""
    svc = service()
    match_id = svc.create(slug, ["ada", "grace"], None, seed=f"web-{slug}").record.id
    play_random_moves(svc, match_id, random.Random(slug), moves)
    return svc.load(match_id)


def view(loaded: LoadedMatch, seat: int | None) -> dict[str, Any]:
    """The seat's view as builtins, as the API answers it."""
    return msgspec.to_builtins(loaded.game.view(loaded.state.game_state, seat))  # type: ignore[no-any-return]


def moment(loaded: LoadedMatch, state: MatchState | None = None) -> Moment:
    """What the table route tells a drawing beside the view: names, who is to move, the end (at `state`, default
    the match as it is now)."""
    state = state or loaded.state
    return Moment(names=bots.shown_names(loaded.game, state.players),
                  to_move=tuple(match.to_move(loaded.game, state)), version=state.version,
                  ended=state.ended.reason if state.ended is not None else None)


def history(loaded: LoadedMatch) -> list[MatchState]:
    """The match after each of its events whose table is laid out (not inside the one set-up append), in order."""
    stored = service().events(loaded, 0, 100_000)
    states, state = [], None
    for index, event in enumerate(stored):
        state = match.evolve(loaded.game, state, event_from_builtins(loaded.game, event.payload))
        if any(e.command is not None for e in stored[:index + 2]) or index + 1 == len(stored):
            states.append(state)
    return states


def drawn(slug: str, loaded: LoadedMatch, seat: int | None) -> str:
    """The picture of `loaded` as `seat` sees it."""
    return drawing(slug)(view(loaded, seat), moment(loaded))


def parse(svg: str) -> ET.Element:
    """The picture as an element tree (fails on anything that is not well-formed SVG)."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def all_with(root: ET.Element, attribute: str) -> list[ET.Element]:
    """Every element carrying `attribute`."""
    return [node for node in root.iter() if attribute in node.attrib]


def values(root: ET.Element, attribute: str) -> list[str]:
    """The values of `attribute` over the picture, in document order."""
    return [node.attrib[attribute] for node in all_with(root, attribute)]


def group(root: ET.Element, attribute: str, value: object) -> ET.Element:
    """The one element whose `attribute` is `value`."""
    found = [node for node in all_with(root, attribute) if node.attrib[attribute] == str(value)]
    assert len(found) == 1, f"{len(found)} elements with {attribute}={value}"
    return found[0]


def leaked(text: str, game: Game[Any], loaded: LoadedMatch, seat: int | None) -> list[str]:
    """The tokens hidden from `seat` that appear, as whole words, in `text`."""
    hidden = game.hidden_from(loaded.state.game_state, seat)
    return [token for token in hidden if re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text)]


GAME_SLUGS = [game.slug for game in GAMES]
