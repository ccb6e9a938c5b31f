"""Game set-up (Rules, Game Set Up / Main Board Set Up / Turn Order & Prime Hub Placement 1 / 2-Player Game): every
random outcome goes into an event."""

from __future__ import annotations

from domain.engine import Event, Refusal
from domain.games.terminus.components import BOARD_NAMES, DATA, TILES, TYPES, UnknownBoard, board
from domain.games.terminus.editions import CURRENT, OptionsV1, Rules
from domain.games.terminus.events import AgendasDealt, AutomaSetUp, SetUp
from domain.games.terminus.options import Options
from domain.rng import Rng

SETUP = DATA.setup


def with_automa(options: Options | OptionsV1, seats: int) -> bool:
    """2-Player Game: 'Locate and shuffle the Automa cards… Select an unused player color to act as the Automa'.
    The Automa is part of every 2-player game unless the option turns it off (reading 33)."""
    return seats == 2 if options.automa is None else options.automa


def start(options: Options | OptionsV1, seats: int, rng: Rng, rules: Rules = CURRENT) -> list[Event]:
    """Rules, Main Board Set Up and Turn Order & Prime Hub Placement 1: the face-up Developments with Demand tokens,
    Projects, Upgrade copies, 2 Agendas dealt to each seat, and the Automa (2-Player Game)."""
    if options.automa and seats != 2:
        raise Refusal("bad-options", "the Automa only plays in 2-player games")
    try:
        city = board(options.board)
    except UnknownBoard as exc:
        raise Refusal("bad-options", f"no board named {options.board[:80]!r}; the boards are: "
                                     f"{', '.join(BOARD_NAMES)}") from exc
    small = seats <= 3
    if options.first_game:
        numbers = SETUP.first_game_tiles_small if small else SETUP.first_game_tiles_large
        display = [t.id for kind in TYPES for t in TILES if t.type == kind and t.number in numbers]
        wanted = SETUP.first_game_projects_small if small else SETUP.first_game_projects_large
        projects = [f"PJ{n:02d}" for n in wanted]
    else:
        display = []
        for kind in TYPES:
            stack = rng.shuffled([t.id for t in TILES if t.type == kind])
            display += stack[: SETUP.dev_tiles_per_type[seats]]
        projects = [f"PJ{p.number:02d}" for p in rng.shuffled(DATA.projects)][: SETUP.projects[seats]]
    tokens = rng.shuffled(city.tokens)[: len(display)]
    events: list[Event] = [SetUp(
        seats=seats, board=options.board, first_game=options.first_game, display=tuple(display), tokens=tokens,
        projects=tuple(projects), upgrade_copies=SETUP.upgrade_copies[seats],
        capacity_start=rules.capacity_start,  # Player Board Set Up 4 (the edition's switch)
    )]
    deck = rng.shuffled(city.agenda_ids)
    dealt = SETUP.agendas_dealt
    hands = tuple(deck[i * dealt : (i + 1) * dealt] for i in range(seats))
    rest = deck[seats * dealt :]
    events.append(AgendasDealt(deck=rest, hands=hands, deck_size=len(rest)))
    if with_automa(options, seats):
        card = rng.choice(city.board.automa_cards)
        events.append(AutomaSetUp(card=card.id, side=rng.choice(("a", "b")), zone=card.start_zone,
                                  plot=card.prime_hub_plot, arrow=card.arrow))
    return events
