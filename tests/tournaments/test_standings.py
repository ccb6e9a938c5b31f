"""Scoring and standings on worked examples, computed by hand (domain/tournaments/scoring.py, standings.py)."""

from __future__ import annotations

from fractions import Fraction

from msgspec.structs import replace

from domain.tournaments.events import EntrantResult
from domain.tournaments.scoring import pairwise, table_points
from domain.tournaments.standings import standings
from tests.tournaments.given import given

A, B, C, D = 0, 1, 2, 3


def r(entrant: int, rank: int = 0, **more: object) -> EntrantResult:
    return EntrantResult(entrant=entrant, rank=rank, **more)  # type: ignore[arg-type]


def test_two_seats_win_one_loss_nothing_draw_half() -> None:
    """Points: a 2-seat win 1, loss 0, draw ½."""
    assert table_points([r(A, 1), r(B, 2)], False) == {A: 1, B: 0}
    assert table_points([r(A, 1), r(B, 1)], False) == {A: Fraction(1, 2), B: Fraction(1, 2)}


def test_k_seats_place_points_with_shared_places_averaged() -> None:
    """A table of k gives (k - place)/(k - 1); ranks 1, 2, 2, 4 at four seats: 1, ½, ½, 0 (places 2 and 3 shared:
    (2/3 + 1/3) / 2); ranks 1, 1, 3 at three: ¾, ¾, 0."""
    assert table_points([r(A, 1), r(B, 2), r(C, 2), r(D, 4)], False) == {
        A: 1, B: Fraction(1, 2), C: Fraction(1, 2), D: 0}
    assert table_points([r(A, 1), r(B, 1), r(C, 3)], False) == {A: Fraction(3, 4), B: Fraction(3, 4), C: 0}
    assert table_points([r(A, 3), r(B, 2), r(C, 1)], False) == {A: 0, B: Fraction(1, 2), C: 1}


def test_a_forfeit_scores_nothing_and_a_win_for_every_other_seat() -> None:
    """A forfeit (deadline, resignation, withdrawal): 0 for the forfeiter, 1 for each of the others."""
    points = table_points([r(A, 3, forfeit="deadline"), r(B, 1), r(C, 2)], False)
    assert points == {A: 0, B: 1, C: 1}
    assert pairwise([r(A, 3, forfeit="deadline"), r(B, 1), r(C, 2)], False)[(B, C)] == Fraction(1, 2)


def test_cooperative_teams_rank_by_win_then_commuters_home_then_fewer_turns() -> None:
    """Mass Transit teams at one table: a win beats a loss; then more Commuters home; then fewer turns."""
    teams = [r(A, won=True, score=6.0, turns=12), r(B, won=True, score=6.0, turns=9),
             r(C, won=False, score=5.0, turns=7), r(D, won=False, score=4.0, turns=3)]
    assert table_points(teams, True) == {B: 1, A: Fraction(2, 3), C: Fraction(1, 3), D: 0}


def test_swiss_buchholz_and_sonneborn_berger_worked_example() -> None:
    """Round 1: A beats B, C draws D. Round 2: A beats C, B beats D.
    Points A 2, B 1, C ½, D ½. Buchholz (opponents' points): A 1 + ½ = 1½, B 2 + ½ = 2½, C ½ + 2 = 2½,
    D ½ + 1 = 1½. Sonneborn-Berger (score × opponent's points): A 1·1 + 1·½ = 1½, B 0·2 + 1·½ = ½,
    C ½·½ + 0·2 = ¼, D ½·½ + 0·1 = ¼. C and D are level on points: C's Buchholz is higher."""
    state = given("swiss", 4, [([[(A, 1), (B, 2)], [(C, 1), (D, 1)]], []),
                               ([[(A, 1), (C, 2)], [(B, 1), (D, 2)]], [])])
    table = {s.entrant: s for s in standings(state)}
    assert [s.entrant for s in standings(state)] == [A, B, C, D]
    assert [table[e].points for e in (A, B, C, D)] == [2, 1, 0.5, 0.5]
    assert [table[e].tiebreaks["buchholz"] for e in (A, B, C, D)] == [1.5, 2.5, 2.5, 1.5]
    assert [table[e].tiebreaks["sonneborn-berger"] for e in (A, B, C, D)] == [1.5, 0.5, 0.25, 0.25]


def test_swiss_sonneborn_berger_breaks_a_buchholz_tie() -> None:
    """Round 1: A beats B, C beats D. Round 2: A draws C, B beats D. Round 3: D beats A, C beats B.
    Points C 2½, A 1½, B 1, D 1. B and D: Buchholz B 1½ + 1 + 2½ = 5, D 2½ + 1 + 1½ = 5, level; Sonneborn-Berger
    B 1·1 (beat D) = 1, D 1·1½ (beat A) = 1½: D ahead of B, though entry order would put B first."""
    state = given("swiss", 4, [([[(A, 1), (B, 2)], [(C, 1), (D, 2)]], []),
                               ([[(A, 1), (C, 1)], [(B, 1), (D, 2)]], []),
                               ([[(A, 2), (D, 1)], [(C, 1), (B, 2)]], [])])
    lines = standings(state)
    assert [s.entrant for s in lines] == [C, A, D, B]
    table = {s.entrant: s for s in lines}
    assert table[B].tiebreaks == {"buchholz": 5.0, "sonneborn-berger": 1.0}
    assert table[D].tiebreaks == {"buchholz": 5.0, "sonneborn-berger": 1.5}


def test_swiss_level_on_everything_falls_back_to_entry_order() -> None:
    """Round 1: A beats B, C beats D. Round 2: A draws C, B draws D. A and C: 1½, Buchholz 2, Sonneborn-Berger
    1·½ + ½·1½ = 1¼ each; B and D: ½, Buchholz 2, SB ¼ each: entry order decides (A before C, B before D)."""
    state = given("swiss", 4, [([[(A, 1), (B, 2)], [(C, 1), (D, 2)]], []),
                               ([[(A, 1), (C, 1)], [(B, 1), (D, 1)]], [])])
    assert [s.entrant for s in standings(state)] == [A, C, B, D]


def test_round_robin_head_to_head_comes_before_sonneborn_berger() -> None:
    """A beats B and D, loses to C; B beats C and D; D beats C. Points A 2, B 2, D 1, C 1. A and B: A beat B.
    D and C: D beat C, though C's Sonneborn-Berger (beat A: 2) is above D's (beat C: 1)."""
    state = given("round-robin", 4, [([[(A, 1), (B, 2)], [(C, 2), (D, 1)]], []),
                                     ([[(A, 2), (C, 1)], [(B, 1), (D, 2)]], []),
                                     ([[(A, 1), (D, 2)], [(B, 1), (C, 2)]], [])])
    lines = standings(state)
    assert [s.entrant for s in lines] == [A, B, D, C]
    table = {s.entrant: s for s in lines}
    assert table[C].tiebreaks == {"head-to-head": 0.0, "sonneborn-berger": 2.0}
    assert table[D].tiebreaks == {"head-to-head": 1.0, "sonneborn-berger": 1.0}


def test_a_cycle_of_three_falls_back_to_entry_order() -> None:
    """A beats B, B beats C, C beats A (round robin of three, byes worth nothing): everything level, so entry
    order decides, last of all."""
    state = given("round-robin", 3, [([[(A, 1), (B, 2)]], [C]), ([[(B, 1), (C, 2)]], [A]),
                                     ([[(C, 1), (A, 2)]], [B])])
    lines = standings(state)
    assert [s.entrant for s in lines] == [A, B, C]
    assert {s.points for s in lines} == {1.0}


def test_a_bye_scores_one_in_swiss_and_nothing_in_round_robin() -> None:
    """The bye: 1 point in Swiss and knockout, 0 in round robin (where everyone sits out equally often)."""
    swiss = {s.entrant: s.points for s in standings(given("swiss", 3, [([[(A, 1), (B, 2)]], [C])]))}
    robin = {s.entrant: s.points for s in standings(given("round-robin", 3, [([[(A, 1), (B, 2)]], [C])]))}
    assert swiss[C] == 1 and robin[C] == 0


def test_knockout_orders_by_round_reached_then_last_place() -> None:
    """Four entrants: A beats D and B beats C; the final, B beats A. B first (final, place 1), A second
    (final, place 2), then C and D, out in round 1 at place 2: points level, so entry order."""
    state = given("knockout", 4, [([[(A, 1), (D, 2)], [(B, 1), (C, 2)]], []), ([[(A, 2), (B, 1)]], [])])
    lines = standings(state)
    assert [s.entrant for s in lines] == [B, A, C, D]
    assert lines[0].tiebreaks == {"round-reached": 2.0, "last-table-place": 1.0}


def test_a_withdrawn_entrant_is_listed_after_those_still_in() -> None:
    """Withdrawal keeps an entrant's results but lists it after every entrant still in."""
    state = given("swiss", 4, [([[(A, 1), (B, 2)], [(C, 1), (D, 2)]], [])])
    state = replace(state, withdrawn=(A,))
    lines = standings(state)
    assert lines[-1].entrant == A and lines[-1].withdrawn
