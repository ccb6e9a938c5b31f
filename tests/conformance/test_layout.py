"""Every registered game follows the one package layout written down in domain/games/README.md: the eleven modules,
each part of its `Game` record taken from the module the layout names, and no other module names."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from domain.catalog import GAMES
from domain.engine import Game

GAMES_DIR = Path(__file__).resolve().parents[2] / "domain" / "games"
ELEVEN = ("game", "editions", "options", "commands", "events", "setup", "state", "rules", "scoring", "visibility",
          "render")
FROM = {
    "start": "setup", "evolve": "state", "decide": "rules", "legal": "rules", "to_move": "rules",
    "outcome": "scoring", "scores": "scoring", "view": "visibility", "redact": "visibility",
    "hidden_from": "visibility", "scramble": "visibility", "determinize": "visibility", "render": "render",
}
TOPIC = re.compile(r"(rules|state)_[a-z]+(_[a-z]+)*")  # a part of rules.py or state.py, named after what it holds
IDS = [game.slug for game in GAMES]


def package(game: Game[Any]) -> str:
    """The game's package, named after its slug."""
    return f"domain.games.{game.slug.replace('-', '_')}"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_game_has_the_eleven_modules_and_no_other_names(game: Game[Any]) -> None:
    """The eleven modules, the data file and its components, and topic modules named `rules_*` or `state_*` only."""
    folder = GAMES_DIR / game.slug.replace("-", "_")
    names = {path.stem for path in folder.glob("*.py")}
    assert set(ELEVEN) <= names, f"missing: {sorted(set(ELEVEN) - names)}"
    assert (folder / "data.toml").exists() and "components" in names
    others = names - set(ELEVEN) - {"__init__", "components"}
    assert all(TOPIC.fullmatch(name) for name in others), f"not named after the layout: {sorted(others)}"
    init = importlib.import_module(package(game))
    assert init.__all__ == ["GAME"] and init.GAME.slug == game.slug
    assert game.editions is importlib.import_module(f"{package(game)}.editions").EDITIONS


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_part_of_the_record_comes_from_its_module(game: Game[Any]) -> None:
    """`start` from setup.py, `evolve` from state.py, `decide`/`legal`/`to_move` from rules.py, and so on; `Options`,
    `COMMANDS`, `EVENTS` and `State` under those names in their own modules."""
    root = package(game)
    record = importlib.import_module(root).GAME  # the package's record: the catalog binds one per edition
    for name, module in FROM.items():
        assert getattr(record, name).__module__ == f"{root}.{module}", name
    assert record.describe is importlib.import_module(f"{root}.render").describe  # a Narrator, built in render.py
    assert game.options_type is importlib.import_module(f"{root}.options").Options
    assert game.options_type.__module__ == f"{root}.options"
    assert game.command_types is importlib.import_module(f"{root}.commands").COMMANDS
    assert {kind.__module__ for kind in game.command_types} == {f"{root}.commands"}
    assert game.event_types is importlib.import_module(f"{root}.events").EVENTS
    assert {kind.__module__ for kind in game.event_types} == {f"{root}.events"}
    # `State` is state.py's own, or state_table.py's re-exported by it (when the fold itself is split up).
    assert importlib.import_module(f"{root}.state").State.__module__ in {f"{root}.state", f"{root}.state_table"}


def test_the_layout_check_sees_a_stray_module() -> None:
    """The name rule above can fail: `common.py` or `helpers.py` is not a layout name."""
    assert not TOPIC.fullmatch("common") and not TOPIC.fullmatch("helpers") and not TOPIC.fullmatch("act_build")
    assert TOPIC.fullmatch("rules_build") and TOPIC.fullmatch("state_players")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_view_is_a_typed_struct(game: Game[Any]) -> None:
    """`view` is annotated with the Struct it returns: the OpenAPI document types each game's view from it, so a
    generated client reads it as the game's own model (api/openapi_games.py)."""
    import msgspec

    from api.openapi_games import view_type
    from domain import match

    kind = view_type(game)
    assert isinstance(kind, type) and issubclass(kind, msgspec.Struct), kind
    seats, options = (game.sample_setups or ((game.min_seats, {}),))[0]
    state = match.fold(game, match.open_match(game, [f"p{i}" for i in range(seats)], options, "typed-view"))
    for seat in (None, *range(seats)):
        assert isinstance(game.view(state.game_state, seat), kind)
