"""Typed Terminus components: the game data (data.toml) and city maps (boards/<name>.toml), decoded once.

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
    """A District of the city: its code (`P4`, `TH`), name and Development type."""

    code: str
    name: str
    type: str
    source: str = "DEFAULT"


class Plot(Frozen, frozen=True):
    """A plot where a Stop may stand, at (x, y) in a District; `edge` on the city's border."""

    id: str
    x: int
    y: int
    district: str
    edge: bool = False


class Block(Frozen, frozen=True):
    """A Block between four plots, where a Development may be placed if zoned for its type."""

    id: str
    corners: tuple[str, ...]
    zoning: tuple[str, ...]


class RailSpace(Frozen, frozen=True):
    """A rail space between two plots: the Rails it takes, how many players fit, the Block a diagonal crosses."""

    id: str
    a: str
    b: str
    rails: int = 2
    sides: int = 1  # 2 = a double rail space (two players side by side)
    block: str | None = None  # a diagonal through this block: blocked by a Development there, and blocks one


class Agenda(Frozen, frozen=True):
    """An Agenda card: what it asks (`kind` in `districts`), its top and bottom rows and their Prestige."""

    id: str
    number: int
    kind: str
    districts: tuple[str, ...]
    top: tuple[int, ...]
    top_prestige: int
    bottom: tuple[int, ...]
    bottom_prestige: int


class AutomaSide(Frozen, frozen=True):
    """One side of an Automa card: how many placements, its Main and Alternate directions."""

    n: int
    main: str
    alt: str


class AutomaCard(Frozen, frozen=True):
    """An Automa card: where its Prime Hub goes, its Direction Marker, starting Zone and two sides."""

    id: str
    district: str
    prime_hub_plot: str
    arrow: str
    start_zone: str
    side_a: AutomaSide
    side_b: AutomaSide


class Board(Frozen, frozen=True):
    """A city map: Districts, plots, Blocks, rail spaces, and the Agendas and Automa cards made for it."""

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
    """A Development tile and its own action; a cost left None is the normal action's cost."""

    number: int
    type: str
    zone: str
    kind: str
    text: str
    coins: int = 0
    permits: int | None = None
    construction: int | None = None
    power: int | None = None
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
    """A Project: what it measures, its three thresholds and their Prestige."""

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
    """An Advanced Upgrade tile (A1..A6): what kind of advantage, and how much."""

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
    """A Turn Order Reward column: resources to choose, coins, or either."""

    resources: int = 0
    coins: int = 0
    either: bool = False


class SetupTable(Frozen, frozen=True):
    """The set-up numbers per player count, and the First Game's tiles and Projects."""

    dev_tiles_per_type: tuple[int, ...]
    projects: tuple[int, ...]
    upgrade_copies: tuple[int, ...]
    agendas_dealt: int
    first_game_projects_small: tuple[int, ...]
    first_game_projects_large: tuple[int, ...]
    first_game_tiles_small: tuple[int, ...]
    first_game_tiles_large: tuple[int, ...]


class Costs(Frozen, frozen=True):
    """What every action costs, and its limits."""

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
    """Each market's columns: (coins per cube, spaces, grey spaces left empty with 2 players)."""

    permit: tuple[tuple[int, int, int], ...]
    blueprint: tuple[tuple[int, int, int], ...]
    power: tuple[tuple[int, int, int], ...]
    construction: tuple[tuple[int, int, int], ...]


class PlayerBoard(Frozen, frozen=True):
    """A player board: pieces, storage, the Station, Capacity and Demand tracks."""

    station_discs: int
    lobbyists: int
    rails: int
    storage_limit: int
    station_income: tuple[int, ...]
    capacity_power: tuple[int, ...]
    upgrade_icons: tuple[int, ...]
    build_upgrades: tuple[str, ...]
    demand_track: tuple[int, ...]


class Scoring(Frozen, frozen=True):
    """End-game Prestige for Stops next to Developments, and coins per Prestige."""

    station_adjacent: int
    hub_one_development: int
    hub_two_developments: int
    coins_per_prestige: int


class GameData(Frozen, frozen=True):
    """Everything in data.toml."""

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
    """A board with its lookups precomputed (indices, neighbours, adjacency); built once per board.

    Plots, Blocks and rail spaces are numbered by their place in the board file; `rail_block` is the Block a diagonal
    rail space crosses (None for the others).
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.plots = board.plots
        self.plot_index = {plot.id: index for index, plot in enumerate(board.plots)}
        self.district_index = {district.code: index for index, district in enumerate(board.districts)}
        self.plot_district = tuple(self.district_index[plot.district] for plot in board.plots)
        self.district_type = tuple(district.type for district in board.districts)
        self.block_index = {block.id: index for index, block in enumerate(board.blocks)}
        self.block_corners = tuple(tuple(self.plot_index[corner] for corner in block.corners) for block in board.blocks)
        self.plot_blocks = tuple(
            tuple(block for block, corners in enumerate(self.block_corners) if plot in corners)
            for plot in range(len(board.plots))
        )
        self.rail_index = {rail.id: index for index, rail in enumerate(board.rails)}
        self.rail_ends = tuple((self.plot_index[rail.a], self.plot_index[rail.b]) for rail in board.rails)
        self.rail_block = tuple(self.block_index[rail.block] if rail.block else None for rail in board.rails)
        self.block_rails = tuple(
            tuple(rail for rail, crossed in enumerate(self.rail_block) if crossed == block)
            for block in range(len(board.blocks))
        )
        links: list[list[tuple[int, int]]] = [[] for _ in board.plots]
        for rail, (one, other) in enumerate(self.rail_ends):
            links[one].append((rail, other))
            links[other].append((rail, one))
        self.plot_links = tuple(tuple(sorted(found, key=lambda link: link[1])) for found in links)
        self.rail_between = {(one, other): rail for rail, (one, other) in enumerate(self.rail_ends)} | {
            (other, one): rail for rail, (one, other) in enumerate(self.rail_ends)
        }
        self.step: tuple[dict[str, tuple[int, int]], ...] = tuple(self._steps(plot) for plot in range(len(board.plots)))
        self.agendas = {agenda.id: agenda for agenda in board.agendas}
        self.agenda_ids = tuple(agenda.id for agenda in sorted(board.agendas, key=lambda agenda: agenda.number))
        self.automa_cards = {card.id: card for card in board.automa_cards}
        self.tokens = tuple(
            f"DM-{district.code}-{n}"
            for district in board.districts for n in range(1, board.demand_tokens_per_district + 1)
        )
        self.token_index = {token: index for index, token in enumerate(self.tokens)}
        self.token_district = tuple(self.district_index[token.split("-")[1]] for token in self.tokens)

    def _steps(self, plot: int) -> dict[str, tuple[int, int]]:
        """Orthogonal neighbours of a plot by compass direction: {'E': (rail index, plot index)}."""
        here = self.plots[plot]
        out: dict[str, tuple[int, int]] = {}
        for rail, other in self.plot_links[plot]:
            if self.rail_block[rail] is not None:
                continue
            there = self.plots[other]
            for name, (dx, dy) in DIRECTIONS.items():
                if (there.x - here.x, there.y - here.y) == (dx, dy):
                    out[name] = (rail, other)
        return out


BOARD_NAMES = data_names(PACKAGE, "boards", ".toml")  # the boards there are: boards/<name>.toml
BOARDS: dict[str, BoardIndex] = {}  # boards loaded so far, by name (a board is read-only data)


class UnknownBoard(KeyError):
    """No board has this name."""


def board(name: str) -> BoardIndex:
    """Rules, Main Board Set Up: the named city board (boards/<name>.toml), loaded and indexed once; UnknownBoard for a
    name not in BOARD_NAMES."""
    found = BOARDS.get(name)
    if found is None:
        # Only names listed from the folder reach the file system: a name is never a path.
        if name not in BOARD_NAMES:
            raise UnknownBoard(name)
        found = BOARDS[name] = BoardIndex(load_data(PACKAGE, f"boards/{name}.toml", Board))
    return found


def turn(arrow: str, relative: str) -> str:
    """Rules, Automa Card Layout (reading 25): the compass direction `relative` ('forward', 'right', 'left') to the
    Direction Marker pointing at `arrow`."""
    shift = {"forward": 0, "right": 1, "left": 3}[relative]
    return CLOCKWISE[(CLOCKWISE.index(arrow) + shift) % 4]
