"""Each game's drawing shows what the view holds, and nothing the viewer may not see."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from api.web.draw import DRAWINGS, drawing
from domain import match
from domain.catalog import GAMES
from domain.games.terminus.components import TILES, board
from tests.conformance.test_sentences import flaws
from tests.web.tables import (
    GAME_SLUGS,
    SVG,
    all_with,
    drawn,
    group,
    history,
    leaked,
    moment,
    parse,
    played,
    values,
    view,
)

MID_GAME = 25


def picture(slug: str, seat: int | None, moves: int = MID_GAME) -> tuple[Any, dict[str, Any], Any]:
    """The loaded match, the seat's view and its parsed drawing."""
    loaded = played(slug, moves)
    shown = view(loaded, seat)
    return loaded, shown, parse(drawing(slug)(shown, moment(loaded)))


def test_every_game_has_one_drawing() -> None:
    """The registry draws exactly the catalog's games."""
    assert sorted(slug for slug, _ in DRAWINGS) == sorted(game.slug for game in GAMES)


@pytest.mark.parametrize("slug", GAME_SLUGS)
@pytest.mark.parametrize("seat", [None, 0, 1])
def test_a_drawing_shows_nothing_hidden_from_its_viewer(slug: str, seat: int | None) -> None:
    """No card hidden from the viewer (another hand, the deck order) appears anywhere in the picture."""
    loaded = played(slug, MID_GAME)
    text = drawn(slug, loaded, seat)
    # Metro X hides only a sealed choice, between a seat's submission and the turn's resolution.
    assert loaded.game.hidden_from(loaded.state.game_state, seat) or slug == "metro-x", "the table hides nothing"
    assert leaked(text, loaded.game, loaded, seat) == []


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_the_picture_changes_as_the_match_goes_on(slug: str) -> None:
    """Two moments of a match are two pictures."""
    early = drawn(slug, played(slug, 2), None)
    later = drawn(slug, played(slug, MID_GAME), None)
    assert early != later


def test_expect_delays_draws_lines_riders_platform_seats_and_hand() -> None:
    """Expect Delays: every stop and rider on the two lines of each seat, the Platform, counts, the hand."""
    _, shown, root = picture("expect-delays", 0)
    for line in shown["lines"]:
        drawn = group(root, "data-line", line["id"])
        assert len(all_with(drawn, "data-stop")) == len(line["stops"])
        assert values(drawn, "data-rider") == [rider for rider in line["stops"] if rider is not None]
    platform = all_with(root, "data-fare-swipes")[0].attrib
    assert (platform["data-fare-swipes"], platform["data-tourists"]) == (
        str(shown["platform_fare_swipes"]), str(shown["platform_tourists"]))
    for seat in shown["seats"]:
        assert group(root, "data-seat", seat["seat"]).attrib["data-points"] == str(seat["points"])
    assert values(group(root, "data-zone", "hand"), "data-card") == list(shown["hand"])


def test_metro_x_draws_each_sheet_with_its_crossed_stations_and_completed_routes() -> None:
    """Metro X: a map per seat, the stations it crossed, its transfers and completed routes, its score."""
    _, shown, root = picture("metro-x", None, 10_000)
    for sheet in shown["sheets"]:
        drawn = group(root, "data-seat", sheet["seat"])
        assert sorted(values(drawn, "data-crossed")) == sorted(sheet["crossed"])
        assert sorted(values(drawn, "data-transfer")) == sorted(sheet["transfers"])
        completed = {n.attrib["data-route"]: n.attrib["data-completed"] for n in all_with(drawn, "data-completed")}
        assert completed == sheet["completed"]
        assert drawn.attrib["data-score"] == str(sheet["score"]["total"])
    assert any(sheet["crossed"] for sheet in shown["sheets"])


def test_terminus_draws_the_city_stations_rails_markets_and_hand() -> None:
    """Terminus: a Stop on every plot that has one, each Rail in its owner's colour, the markets, the hand."""
    _, shown, root = picture("terminus", 0, 60)
    stops = [level for level in shown["stop_level"] if level]
    assert len(all_with(root, "data-stop")) == len(stops) > 0
    rails = sorted(owner for owners in shown["rail_owners"] for owner in owners)
    assert sorted(int(owner) for owner in values(group(root, "data-zone", "city"), "data-owner")
                  if owner) == sorted(rails + [o for o in shown["stop_owner"] if o is not None and o >= 0])
    assert [int(n) for n in values(group(root, "data-zone", "markets"), "data-cubes")] == [
        sum(m) for m in shown["markets"]]
    assert values(group(root, "data-seat", 0), "data-secret") == [shown["players"][0]["secret"]]
    _, opening, root = picture("terminus", 0, 0)
    hand = opening["players"][0]["hand"]
    assert values(group(root, "data-seat", 0), "data-card") == list(hand) and hand
    assert group(root, "data-seat", 1).attrib["data-hand-size"] == str(opening["players"][1]["hand"])
    faces = " ".join("".join(node.itertext()) for node in all_with(root, "data-zone") if
                     node.attrib["data-zone"] == "faces")
    assert all(f"{card} " in faces for card in hand), faces  # each Agenda in hand with its face


def test_terminus_names_each_district_once_and_has_a_legend_for_every_owner_and_piece() -> None:
    """Found: plots labelled with district codes (TH, P4, ...) and a green square with no legend. Each district is
    labelled once, by its name where the component data has one (the SEED districts) and by its bare code where it
    has none; every owner of a Stop or Rail (the Automa too) and every kind of Stop standing has a legend entry."""
    _, shown, root = picture("terminus", 0, 60)
    city = board(shown["board"]).board
    labels = {node.attrib["data-district"]: "".join(node.itertext()) for node in all_with(root, "data-district")}
    assert labels == {d.code: (d.name if d.source == "SEED" else d.code) for d in city.districts}
    assert "Tarragon Hills" in labels.values() and "Placeholder" not in " ".join(labels.values())
    legend = " ".join("".join(node.itertext()) for node in group(root, "data-zone", "legend").iter(f"{SVG}text"))
    owners = {int(o) for o in values(group(root, "data-zone", "city"), "data-owner") if int(o) >= 0}
    assert shown["automa"] and shown["seats"] in owners  # the Automa built: its colour is on the board
    for owner in owners:
        name = "the Automa" if owner == shown["seats"] else ["ada", "grace"][owner]
        assert f"{name}'s rails, Stops and Lobbyists" in legend, legend
    shapes = set(values(group(root, "data-zone", "legend"), "data-legend"))
    assert {"station", "hub", "prime", "plot", "cube", "space", "dash", "cell", "border"} <= shapes
    levels = set(values(group(root, "data-zone", "city"), "data-level"))
    assert levels and levels <= {"station", "hub", "prime hub"}
    _, later, root = picture("terminus", 0, 140)  # Lobbyists stand on Developments by then
    lobbyists = sorted(owner for tile in later["block_tile"] if tile is not None and tile >= 0
                       for owner in later["tile_lobbyists"][tile])
    assert sorted(int(o) for o in values(root, "data-lobbyist")) == lobbyists and lobbyists


def test_terminus_draws_a_development_only_where_one_is_built_with_its_face() -> None:
    """A Development square stands only on a block with a tile (-1: none), named, and its action told below."""
    for moves in (0, 60, 140):
        _, shown, root = picture("terminus", 0, moves)
        built = [tile for tile in shown["block_tile"] if tile is not None and tile >= 0]
        assert len(all_with(root, "data-development")) == len(built)
        text = " ".join("".join(node.itertext()) for node in root.iter())
        assert all(f"DT{TILES[t].number:02d} (" in text for t in built)


def test_mass_transit_draws_routes_commuters_and_hands() -> None:
    """Mass Transit: the cards of every route in order, each commuter where it stands, hand sizes, the hand."""
    _, shown, root = picture("mass-transit", 1)
    for index, cards in enumerate(shown["routes"]):
        assert values(group(root, "data-route", index), "data-route-card") == list(cards)
    for commuter in shown["commuters"]:
        assert group(root, "data-commuter", commuter["route"]).attrib["data-pos"] == str(commuter["pos"])
    for seat, size in enumerate(shown["hand_sizes"]):
        assert group(root, "data-seat", seat).attrib["data-hand-size"] == str(size)
    assert values(group(root, "data-zone", "hand"), "data-card") == list(shown["hand"])


def test_touched_on_draws_lines_carriages_hand_sizes_and_hand() -> None:
    """Touched On: each Line's count, every carriage's cards and owner (grouped by line), each seat's hand size and
    Exp, the hand."""
    _, shown, root = picture("touched-on", 1)
    for line in shown["lines"]:
        assert group(root, "data-line", line["line"]).attrib["data-count"] == str(line["count"])
    carriages = all_with(root, "data-carriage")
    drawn = [(c.attrib["data-carriage"], c.attrib["data-owner"], values(c, "data-carriage-card")) for c in carriages]
    # grouped by line, in play order within a line
    assert drawn == [(c["line"], str(c["owner"]), list(c["cards"]))
                     for c in sorted(shown["carriages"], key=lambda c: c["line"])]
    for seat in shown["seats"]:
        assert group(root, "data-seat", seat["seat"]).attrib["data-hand-size"] == str(seat["hand_size"])
    assert values(group(root, "data-zone", "hand"), "data-card") == list(shown["hand"])
    played_cards = [card for c in shown["carriages"] for card in c["cards"]]
    kinds = [value for c in carriages for value in values(c, "data-kind")]
    assert played_cards and len(kinds) == len(played_cards)  # every card in play says what it is


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_a_spectator_is_shown_no_hand(slug: str) -> None:
    """A spectator's picture holds no private cards at all (a seat's own are marked `data-card`, `data-secret`)."""
    spectator, seat = picture(slug, None, 0)[2], picture(slug, 0, 0)[2]
    assert values(spectator, "data-card") == values(spectator, "data-secret") == []
    assert values(seat, "data-card") or slug == "metro-x"  # Metro X has no hands


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_the_header_names_who_is_to_move_at_every_version_and_the_end_only_at_the_end(slug: str) -> None:
    """Folded version by version, each picture says exactly who the rules put to move (by name and seat), never a
    seat -1 or 'player -1', and says the match is over only at its last version."""
    loaded = played(slug, 10_000)
    assert loaded.state.finished
    states = history(loaded)
    assert states[-1] == loaded.state
    for state in states:
        if state.game_state is None:
            continue
        shown = msgspec.to_builtins(loaded.game.view(state.game_state, None))
        root = parse(drawing(slug)(shown, moment(loaded, state)))
        to_move = match.to_move(loaded.game, state)
        assert root.attrib["data-to-move"] == " ".join(map(str, to_move))
        header = "".join(all_with(root, "data-header")[0].itertext())
        assert " -1 " not in f"{header} " and ("match over" in header) == state.finished, header
        # Found: Terminus's end read "over · match over (scored)": said twice, and the reason a code in brackets.
        assert not state.finished or (len(re.findall(r"\bover\b", header)) == 1 and "(" not in header), header
        # Found: Mass Transit's end read "match over · team lost: … · lost": the result said twice.
        assert len(re.findall(r"\b(?:won|lost)\b", header)) <= 1, header
        # Touched On puts seat -1 "to move" between journeys (inside one append): the header says nobody, not -1.
        assert all(f"{state.players[seat]} (seat {seat})" in header for seat in to_move if seat >= 0), header


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_every_text_of_every_picture_reads_as_english(slug: str) -> None:
    """Found: "1 cards in hand", "1 riders on lines". Every text of the picture at every version of a seeded match,
    for a spectator and seat 0, has no wrong plural, empty slot or code identifier (see test_sentences)."""
    loaded = played(slug, 10_000)
    bad = set()
    for state in history(loaded):
        if state.game_state is None:
            continue
        for seat in (None, 0):
            shown = msgspec.to_builtins(loaded.game.view(state.game_state, seat))
            root = parse(drawing(slug)(shown, moment(loaded, state)))
            for element in root.iter(f"{SVG}text"):
                text = "".join(element.itertext())
                bad |= {(flaw, text) for flaw in flaws(text)}
    assert not bad, sorted(bad)


@pytest.mark.parametrize("slug", GAME_SLUGS)
@pytest.mark.parametrize("seat", [None, 0, 1])
def test_a_phones_picture_is_narrow_legible_and_hides_the_same(slug: str, seat: int | None) -> None:
    """The narrow layout fits 380 units, draws no text under 12 units (a unit is at least a CSS pixel on a 420 px
    phone) and shows its viewer nothing more than the wide one."""
    loaded = played(slug, MID_GAME)
    shown = view(loaded, seat)
    text = drawing(slug)(shown, msgspec.structs.replace(moment(loaded), narrow=True))
    root = parse(text)
    assert float(root.attrib["width"]) <= 380
    assert min(float(n.attrib["font-size"]) for n in all_with(root, "font-size")) >= 12
    assert leaked(text, loaded.game, loaded, seat) == []


@pytest.mark.parametrize("slug", GAME_SLUGS)
def test_the_end_shows_every_hand_and_before_it_a_spectator_sees_none(slug: str) -> None:
    """With every seat's view at the end (all public then) each seat's cards are drawn; without it, a spectator's
    picture draws no card."""
    loaded = played(slug, 10_000)
    assert loaded.state.finished
    views = tuple(msgspec.to_builtins(loaded.game.view(loaded.state.game_state, s))
                  for s in range(len(loaded.state.players)))
    at_end = parse(drawing(slug)(view(loaded, None), msgspec.structs.replace(moment(loaded), seat_views=views)))
    hands = [view_of_seat.get("hand") or view_of_seat.get("players", [{}] * 2)[s].get("hand")
             for s, view_of_seat in enumerate(views)]
    expected = sorted(card for cards in hands if isinstance(cards, (list, tuple)) for card in cards)
    assert sorted(values(at_end, "data-card")) == expected
    spectator = parse(drawing(slug)(view(loaded, None), moment(loaded)))
    assert values(spectator, "data-card") == []


def test_metro_x_names_its_face_up_card_and_keeps_the_code_as_a_small_label() -> None:
    """Found: the header read "card FS-1 (free 0)". The face-up card is told by name and what it does; its code
    stands alone as a small grey label."""
    for moves in (0, 25):
        _, shown, root = picture("metro-x", 0, moves)
        face = "".join(all_with(root, "data-face-up")[0].itertext())
        assert face.startswith("Face-up card: ") and shown["card"]["id"] not in face, face
        assert shown["card"]["kind"] != "free" or "Free Space" in face
        code = group(root, "data-code", shown["card"]["id"])
        assert code.attrib["font-size"] == "12" and code.attrib["fill"] == "#777777"
