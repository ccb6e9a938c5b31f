"""Typed Terminus data: the game data (data.toml) and city maps (boards/<name>.toml), decoded once.

Rules never name a plot, district or tile: they read these records, so a second board is a second TOML file.
"""

from __future__ import annotations

import msgspec

from domain.data import data_names, load_data

PACKAGE = "domain.games.terminus"
TYPES = ("commercial", "industrial", "residential")
DIRECTIONS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
CLOCKWISE = ("N", "E", "S", "W")


class Frozen(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every data record."""


class District(Frozen, frozen=True):
    code: str
    name: str
    type: str
    source: str = "DEFAULT"


class Plot(Frozen, frozen=True):
    id: str
    x: int
    y: int
    district: str
    edge: bool = False


class Block(Frozen, frozen=True):
    id: str
    corners: tuple[str, ...]
    zoning: tuple[str, ...]


class RailSpace(Frozen, frozen=True):
    id: str
    a: str
    b: str
    rails: int = 2
    sides: int = 1  # 2 = a double rail space (two players side by side)
    block: str = ""  # a diagonal through this block: blocked by a Development there, and blocks one


class Agenda(Frozen, frozen=True):
    id: str
    number: int
    kind: str
    districts: tuple[str, ...]
    top: tuple[int, ...]
    top_prestige: int
    bottom: tuple[int, ...]
    bottom_prestige: int


class AutomaSide(Frozen, frozen=True):
    n: int
    main: str
    alt: str


class AutomaCard(Frozen, frozen=True):
    id: str
    district: str
    prime_hub_plot: str
    arrow: str
    start_zone: str
    side_a: AutomaSide
    side_b: AutomaSide


class Board(Frozen, frozen=True):
    name: str
    status: str
    demand_tokens_per_district: int
    districts: tuple[District, ...]
    plots: tuple[Plot, ...]
    blocks: tuple[Block, ...]
    rails: tuple[RailSpace, ...]
    agendas: tuple[Agenda, ...]
    automa_cards: tuple[AutomaCard, ...]


class Tile(Frozen, frozen=True):
    number: int
    type: str
    zone: str
    kind: str
    text: str
    coins: int = 0
    permits: int = -1  # -1: the normal action's Permit cost
    construction: int = -1  # -1: the normal Build's Construction cost
    power: int = -1  # -1: the normal Take Demand Power cost
    gain: dict[str, int] = {}
    extra_cards: int = 0
    discount: int = 0
    depots: int = 1
    rails: int = 0
    bundles: tuple[tuple[int, int], ...] = ()
    ignore_power: bool = False
    count: int = 1

    @property
    def id(self) -> str:
        """The tile's id in commands and events, e.g. 'DT10'."""
        return f"DT{self.number:02d}"


class Project(Frozen, frozen=True):
    number: int
    metric: str
    thresholds: tuple[int, int, int]
    prestige: tuple[int, int, int]
    text: str

    @property
    def id(self) -> str:
        """The project's id, e.g. 'PJ05'."""
        return f"PJ{self.number:02d}"


class Upgrade(Frozen, frozen=True):
    id: str
    kind: str
    text: str
    amount: int = 0


class BonusOption(Frozen, frozen=True):
    """An area of the Bonus Track; `alternate_only` areas are taken only instead of a Bonus not collectable in full."""

    permit: int = 0
    blueprint: int = 0
    power: int = 0
    construction: int = 0
    rails: int = 0
    coins: int = 0
    alternate_only: bool = False


class Reward(Frozen, frozen=True):
    resources: int = 0
    coins: int = 0
    either: bool = False


class SetupTable(Frozen, frozen=True):
    dev_tiles_per_type: tuple[int, ...]
    projects: tuple[int, ...]
    upgrade_copies: tuple[int, ...]
    agendas_dealt: int
    first_game_projects_small: tuple[int, ...]
    first_game_projects_large: tuple[int, ...]
    first_game_tiles_small: tuple[int, ...]
    first_game_tiles_large: tuple[int, ...]


class Costs(Frozen, frozen=True):
    take_demand_power: int
    place_development_permit: int
    draw_agendas_permit: int
    agenda_draw_by_year: tuple[int, ...]
    max_agendas: int
    lobby_project_permit: int
    project_row_spaces: int
    project_rows: int
    project_new_row_min: int
    project_add_max: int
    upgrade_costs: tuple[tuple[int, int], ...]
    max_upgrades: int
    rail_bundles: tuple[tuple[int, int], ...]
    build_permit: int
    build_construction: int
    stop_blueprint: int
    capacity_construction_per_step: int
    automa_fee: int
    connection_power: int
    connection_coin: int


class Markets(Frozen, frozen=True):
    permit: tuple[tuple[int, int, int], ...]
    blueprint: tuple[tuple[int, int, int], ...]
    power: tuple[tuple[int, int, int], ...]
    construction: tuple[tuple[int, int, int], ...]


class PlayerBoard(Frozen, frozen=True):
    station_discs: int
    lobbyists: int
    rails: int
    storage_limit: int
    station_income: tuple[int, ...]
    capacity_power: tuple[int, ...]
    upgrade_icons: tuple[int, ...]
    build_upgrades: tuple[str, ...]
    demand_track: tuple[int, ...]
    capacity_start: int


class Scoring(Frozen, frozen=True):
    station_adjacent: int
    hub_one_development: int
    hub_two_developments: int
    coins_per_prestige: int


class GameData(Frozen, frozen=True):
    resources: tuple[str, ...]
    zones: tuple[str, ...]
    zone_actions: dict[str, tuple[str, ...]]
    setup: SetupTable
    costs: Costs
    markets: Markets
    player_board: PlayerBoard
    bonus_options: tuple[BonusOption, ...]
    turn_order_rewards: tuple[Reward, ...]
    scoring: Scoring
    upgrades: tuple[Upgrade, ...]
    tiles: tuple[Tile, ...]
    projects: tuple[Project, ...]


DATA: GameData = load_data(PACKAGE, "data.toml", GameData)
RESOURCES = DATA.resources
TILES = tuple(sorted(DATA.tiles, key=lambda t: t.number))
TILE_INDEX = {t.id: i for i, t in enumerate(TILES)}
PROJECTS = tuple(sorted(DATA.projects, key=lambda p: p.number))
PROJECT_INDEX = {p.id: i for i, p in enumerate(PROJECTS)}
UPGRADES = DATA.upgrades
UPGRADE_INDEX = {u.id: i for i, u in enumerate(UPGRADES)}
UPGRADE_KIND = {u.kind: u for u in UPGRADES}
MARKETS = tuple(getattr(DATA.markets, r) for r in RESOURCES)
ZONES = DATA.zones
ZONE_INDEX = {z: i for i, z in enumerate(ZONES)}


class BoardIndex:
    """A board with its lookups precomputed (indices, neighbours, adjacency); built once per board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.plots = board.plots
        self.plot_index = {p.id: i for i, p in enumerate(board.plots)}
        self.district_index = {d.code: i for i, d in enumerate(board.districts)}
        self.plot_district = tuple(self.district_index[p.district] for p in board.plots)
        self.district_type = tuple(d.type for d in board.districts)
        self.block_index = {b.id: i for i, b in enumerate(board.blocks)}
        self.block_corners = tuple(tuple(self.plot_index[c] for c in b.corners) for b in board.blocks)
        self.plot_blocks = tuple(
            tuple(bi for bi, corners in enumerate(self.block_corners) if pi in corners)
            for pi in range(len(board.plots))
        )
        self.rail_index = {r.id: i for i, r in enumerate(board.rails)}
        self.rail_ends = tuple((self.plot_index[r.a], self.plot_index[r.b]) for r in board.rails)
        self.rail_block = tuple(self.block_index[r.block] if r.block else -1 for r in board.rails)
        self.block_rails = tuple(
            tuple(ri for ri, b in enumerate(self.rail_block) if b == bi) for bi in range(len(board.blocks))
        )
        links: list[list[tuple[int, int]]] = [[] for _ in board.plots]
        for ri, (a, b) in enumerate(self.rail_ends):
            links[a].append((ri, b))
            links[b].append((ri, a))
        self.plot_links = tuple(tuple(sorted(ls, key=lambda x: x[1])) for ls in links)
        self.rail_between = {(a, b): ri for ri, (a, b) in enumerate(self.rail_ends)} | {
            (b, a): ri for ri, (a, b) in enumerate(self.rail_ends)
        }
        self.step: tuple[dict[str, tuple[int, int]], ...] = tuple(self._steps(pi) for pi in range(len(board.plots)))
        self.agendas = {a.id: a for a in board.agendas}
        self.agenda_ids = tuple(a.id for a in sorted(board.agendas, key=lambda a: a.number))
        self.automa_cards = {c.id: c for c in board.automa_cards}
        self.tokens = tuple(
            f"DM-{d.code}-{n}" for d in board.districts for n in range(1, board.demand_tokens_per_district + 1)
        )
        self.token_index = {t: i for i, t in enumerate(self.tokens)}
        self.token_district = tuple(self.district_index[t.split("-")[1]] for t in self.tokens)

    def _steps(self, pi: int) -> dict[str, tuple[int, int]]:
        """Orthogonal neighbours of a plot by compass direction: {'E': (rail index, plot index)}."""
        here = self.plots[pi]
        out: dict[str, tuple[int, int]] = {}
        for ri, other in self.plot_links[pi]:
            if self.rail_block[ri] >= 0:
                continue
            there = self.plots[other]
            for name, (dx, dy) in DIRECTIONS.items():
                if (there.x - here.x, there.y - here.y) == (dx, dy):
                    out[name] = (ri, other)
        return out


BOARD_NAMES = data_names(PACKAGE, "boards", ".toml")  # the boards there are: boards/<name>.toml
BOARDS: dict[str, BoardIndex] = {}  # boards loaded so far, by name (a board is read-only data)


class UnknownBoard(KeyError):
    """No board has this name."""


def board(name: str) -> BoardIndex:
    """The named board (boards/<name>.toml), loaded and indexed once; UnknownBoard for a name not in BOARD_NAMES."""
    found = BOARDS.get(name)
    if found is None:
        # Only names listed from the folder reach the file system: a name is never a path.
        if name not in BOARD_NAMES:
            raise UnknownBoard(name)
        found = BOARDS[name] = BoardIndex(load_data(PACKAGE, f"boards/{name}.toml", Board))
    return found


def turn(arrow: str, relative: str) -> str:
    """The compass direction `relative` ('forward', 'right', 'left') to an arrow pointing at `arrow`."""
    shift = {"forward": 0, "right": 1, "left": 3}[relative]
    return CLOCKWISE[(CLOCKWISE.index(arrow) + shift) % 4]
