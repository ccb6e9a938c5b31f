"""Rules editions: a match is decided, folded, viewed and verified under the edition it was created with, forever.

A game lists its editions in its own `editions.py`, oldest first; the last is current. An edition is frozen: a rule
change adds an edition, never edits one (tests/conformance/test_editions.py holds a digest of every decision each
edition makes on a fixed set of playouts, and fails when an old one changes). The changes so far are all switches and
data, so an edition is a named set of switches (`rules`: a frozen Struct of the game's, kept in the game's state from
the set-up on, where the rules read it), and, where the options a match took changed, the options type of its time.
Old event shapes reach the folds through the upcasters the edition declares (`upcasters`; domain/upcasters.py).

`bind(game, edition)` gives the `Game` record of one edition: its `rules_version`, options, texts, a `start` that
reads the edition's switches and an `evolve` that puts them into the state it sets up.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Sequence
from functools import partial, wraps
from typing import Any

import msgspec

from domain.edition import Edition
from domain.engine import Event, Game


class UnknownEdition(Exception):
    """A match or record names a rules edition this code does not have (perhaps written by a newer release)."""

    def __init__(self, game: str, rules_version: str, known: Sequence[str]) -> None:
        newer = _newer(rules_version, known)
        super().__init__(f"{game} has no rules edition {rules_version!r}"
                         f"{' (newer than this release: upgrade to read it)' if newer else ''}; "
                         f"editions here: {', '.join(known)}")
        self.game = game
        self.rules_version = rules_version
        self.known = tuple(known)
        self.newer = newer


def _newer(rules_version: str, known: Sequence[str]) -> bool:
    """Whether `rules_version` is a later edition number than every known one."""
    if not rules_version.isdigit():
        return False
    numbers = [int(v) for v in known if v.isdigit()]
    return bool(numbers) and int(rules_version) > max(numbers)


def bind(game: Game[Any], edition: Edition) -> Game[Any]:
    """The game record as `edition` plays it."""
    start, evolve = game.start, game.evolve
    if edition.rules is not None:
        if "rules" in inspect.signature(game.start).parameters:  # a set-up that reads switches (Terminus, Touched On)
            start = partial(game.start, rules=edition.rules)  # type: ignore[call-arg]
        evolve = _evolve_under(game.evolve, edition.rules)
    return dataclasses.replace(
        game, rules_version=edition.rules_version, start=start, evolve=evolve, rules=edition.rules,
        options_type=edition.options_type or game.options_type,
        deviations=game.deviations if edition.deviations is None else edition.deviations,
        default_data=game.default_data if edition.default_data is None else edition.default_data,
        sample_setups=game.sample_setups if edition.sample_setups is None else edition.sample_setups,
    )


def _evolve_under(evolve: Callable[[Any, Event], Any], rules: msgspec.Struct) -> Callable[[Any, Event], Any]:
    """The game's fold, with the edition's switches put into the state its set-up makes."""

    @wraps(evolve)  # its annotations too: snapshots decode the state type `evolve` is annotated with
    def evolved(state: Any, event: Event) -> Any:
        if state is None:
            return msgspec.structs.replace(evolve(None, event), rules=rules)
        return evolve(state, event)

    return evolved
