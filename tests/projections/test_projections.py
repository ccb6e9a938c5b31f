"""Each projection on hand-built logs: match summaries, player and game statistics, ratings."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from domain.handles import identity
from projections import game_stats, match_summaries, player_stats, ratings
from projections.catalog import PROJECTIONS
from projections.common import seconds_between
from projections.log import MemoryDocs, ProjectionError, fold_all
from tests.projections.events import Log


def docs_of(projection: object, log: Log) -> MemoryDocs:
    """Fold a hand-built log."""
    folded = fold_all(projection, log.entries)  # type: ignore[arg-type]
    assert isinstance(folded, MemoryDocs)
    return folded


def test_a_match_summary_has_players_results_moves_and_duration() -> None:
    """Summaries: status, players, scores, ranks, end reason, number of moves and duration."""
    log = Log().started("m1", "expect-delays", ["ada", "bob"]).moves("m1", 3).ended("m1", [2, 1], [4, 10])
    summary = docs_of(match_summaries.PROJECTION, log).get("summary", "m1")
    assert summary is not None
    assert summary["status"] == "finished" and summary["moves"] == 3 and summary["end_reason"] == "finished"
    assert [(r["player"], r["rank"], r["score"]) for r in summary["results"]] == [("ada", 2, 4), ("bob", 1, 10)]
    assert summary["duration_seconds"] == 1800


def test_a_move_is_counted_once_however_many_events_it_wrote() -> None:
    """Moves count commands, not events."""
    log = Log().started("m1", "g", ["a"])
    log.add("m1", "game.a", {}).add("m1", "game.b", {}, same_command=True)
    summary = docs_of(match_summaries.PROJECTION, log).get("summary", "m1")
    assert summary is not None and summary["moves"] == 1


def test_player_statistics_count_wins_losses_draws_scores_and_streaks() -> None:
    """played, won, lost, drawn, mean and best score, mean placement, current and longest streak."""
    log = Log()
    outcomes = [([1, 2], [10, 3]), ([1, 2], [8, 7]), ([2, 1], [5, 9]), ([1, 1], [6, 6]), ([1, 2], [11, 2])]
    for n, (ranks, scores) in enumerate(outcomes):
        log.started(f"m{n}", "expect-delays", ["ada", "bob"]).ended(f"m{n}", ranks, scores)
    docs = docs_of(player_stats.PROJECTION, log)
    ada = docs.get("stats", "expect-delays|ada")
    assert ada is not None
    assert (ada["played"], ada["won"], ada["lost"], ada["drawn"]) == (5, 3, 1, 1)
    assert ada["best_score"] == 11 and ada["mean_score"] == pytest.approx(8.0)
    assert ada["mean_placement"] == pytest.approx(6 / 5)
    assert (ada["current_win_streak"], ada["longest_win_streak"]) == (1, 2)
    assert docs.get("player", "bob") == {"player": "bob", "games": {"expect-delays": 5}}
    assert docs.get("match", "m0") is None, "the remembered start is dropped once the match is folded"


def test_a_cooperative_result_applies_to_every_seat() -> None:
    """Mass Transit: the team wins or loses together."""
    log = Log().started("m1", "mass-transit", ["ada", "bob"]).ended("m1", [1, 1], [5, 5], cooperative=True,
                                                                     team_won=True)
    log.started("m2", "mass-transit", ["ada", "bob"]).ended("m2", [1, 1], [2, 2], cooperative=True, team_won=False)
    docs = docs_of(player_stats.PROJECTION, log)
    for player in ("ada", "bob"):
        stats = docs.get("stats", f"mass-transit|{player}")
        assert stats is not None and (stats["won"], stats["lost"], stats["drawn"]) == (1, 1, 0)
    game = docs_of(game_stats.PROJECTION, log).get("game", "mass-transit")
    assert game is not None and game["cooperative_played"] == 2 and game["cooperative_win_rate"] == 0.5


def test_game_statistics_by_seat_scores_length_reasons_and_solo() -> None:
    """Win rate by seat order, score distribution, match length, end reasons and the solo score table."""
    log = Log().started("a", "metro-x", ["ada", "bob"]).moves("a", 4).ended("a", [1, 2], [30, 20])
    log.started("b", "metro-x", ["ada", "bob"]).moves("b", 2).ended("b", [2, 1], [10, 20], reason="resigned")
    log.started("c", "metro-x", ["solo"]).moves("c", 3).ended("c", [1], [25])
    log.started("d", "metro-x", ["x", "y"])
    game = docs_of(game_stats.PROJECTION, log).get("game", "metro-x")
    assert game is not None
    assert (game["started"], game["finished"]) == (4, 3)
    assert game["wins_by_seat"] == {"0": 1, "1": 1}
    assert game["scores"] == {"30": 1, "20": 2, "10": 1, "25": 1}
    assert (game["moves_min"], game["moves_max"], game["moves_mean"]) == (2, 4, 3)
    assert game["end_reasons"] == {"finished": 2, "resigned": 1}
    assert game["solo_scores"] == {"25": 1}


def test_ratings_equal_openskills_own_results_with_ties() -> None:
    """Free-for-all with ties, in log order, equal to rating the same matches with openskill directly."""
    log = Log().started("m1", "terminus", ["a", "b", "c"]).ended("m1", [1, 2, 2], [9, 5, 5])
    log.started("m2", "terminus", ["c", "a"]).ended("m2", [1, 2], [7, 6])
    docs = docs_of(ratings.PROJECTION, log)
    model = PlackettLuce()
    a, b, c = (model.rating(name=n) for n in "abc")
    [a], [b], [c] = model.rate([[a], [b], [c]], ranks=[1, 2, 2])
    [c], [a] = model.rate([[c], [a]], ranks=[1, 2])
    for name, expected in {"a": a, "b": b, "c": c}.items():
        doc = docs.get("rating", f"terminus|{name}")
        assert doc is not None
        assert (doc["mu"], doc["sigma"]) == (expected.mu, expected.sigma)
        assert doc["ordinal"] == pytest.approx(expected.mu - 3 * expected.sigma)
    assert docs.get("rating", "terminus|a")["matches"] == 2  # type: ignore[index]


def test_cooperative_solo_and_self_play_matches_are_not_rated() -> None:
    """Ratings are for free-for-all play between different players."""
    log = Log().started("m1", "mass-transit", ["a", "b"]).ended("m1", [1, 1], [3, 3], cooperative=True,
                                                                  team_won=True)
    log.started("m2", "metro-x", ["a"]).ended("m2", [1], [30])
    log.started("m3", "metro-x", ["a", "a"]).ended("m3", [1, 2], [30, 20])
    docs = docs_of(ratings.PROJECTION, log)
    assert not any(kind == "rating" for kind, _ in docs.items)


@pytest.mark.parametrize("projection", PROJECTIONS, ids=lambda p: p.name)
def test_a_projection_stops_on_what_it_cannot_handle(projection: object) -> None:
    """An unknown lifecycle event, or an event of a match never started, is an error, never skipped."""
    with pytest.raises(ProjectionError):
        docs_of(projection, Log().started("m1", "g", ["a"]).add("m1", "match.paused", {}))
    with pytest.raises(ProjectionError):
        docs_of(projection, Log().ended("m9", [1], [1]))


def test_durations_are_computed_without_a_clock() -> None:
    """ISO stamps, across a month and a leap day."""
    assert seconds_between("2024-02-28T23:59:00Z", "2024-03-01T00:01:00+00:00") == 86400 + 120
    assert seconds_between("2026-11-23T10:00:00.5Z", "2026-11-23T10:00:02Z") == 1.5
    assert seconds_between("garbage", "2026-11-23T10:00:00Z") is None


def test_a_seats_entropy_match_is_dealing_until_its_deal_and_neither_entropy_nor_the_deal_is_a_move() -> None:
    """Option `entropy: "seats"`: the summary says `dealing` from `match.started` until `match.entropy-closed`, then
    `active`; a seat's entropy and the deal (entropy closed, then the set-up under the same command) count no move;
    the first move after them counts one."""
    log = Log().started("m1", "g", ["a", "b"])
    log.entries[-1].payload["options"] = {"entropy": "seats", "entropy_deadline": 300}
    log.add("m1", "match.entropy-added", {"seat": 0, "entropy": "x"})
    assert (docs_of(match_summaries.PROJECTION, log).get("summary", "m1") or {})["status"] == "dealing"
    log.add("m1", "match.entropy-added", {"seat": 1, "entropy": "y"})
    log.add("m1", "match.entropy-closed", {"absent": []}).add("m1", "game.set-up", {}, same_command=True)
    summary = docs_of(match_summaries.PROJECTION, log).get("summary", "m1")
    assert summary is not None and (summary["status"], summary["moves"]) == ("active", 0)
    log.add("m1", "game.move", {})
    summary = docs_of(match_summaries.PROJECTION, log).get("summary", "m1")
    assert summary is not None and summary["moves"] == 1


def test_end_reasons_are_counted_by_code_with_the_detail_left_out() -> None:
    """Mass Transit writes the turns and Commuters into its reason: each loss was its own bucket."""
    log = Log()
    details = ["team-lost: seat 0 could not play two cards; 0 of 6 Commuters home in 16 turns",
               "team-lost: seat 1 could not play two cards; 2 of 6 Commuters home in 9 turns",
               "team-won: all 6 Commuters home in 12 turns"]
    for n, reason in enumerate(details):
        log.started(f"m{n}", "mass-transit", ["ada", "bob"]).ended(f"m{n}", [1, 1], [0, 0], reason=reason,
                                                                     cooperative=True, team_won="won" in reason)
    game = docs_of(game_stats.PROJECTION, log).get("game", "mass-transit")
    assert game is not None and game["end_reasons"] == {"team-lost": 2, "team-won": 1}
    summary = docs_of(match_summaries.PROJECTION, log).get("summary", "m0")
    assert summary is not None and summary["end_reason"] == details[0], "a match keeps its whole reason"


HANDLE_CHARACTERS = string.ascii_letters + string.digits + "_.@-"  # what api.schemas.Handle accepts


@given(st.text(max_size=12))
def test_a_handles_identity_is_a_fixed_point(text: str) -> None:
    """Folding an identity again changes nothing (NFKC after casefold: folding may denormalise)."""
    assert identity(identity(text)) == identity(text)


@given(st.text(alphabet=HANDLE_CHARACTERS, min_size=1, max_size=12))
def test_every_case_of_a_handle_names_one_player(handle: str) -> None:
    assert identity(handle.upper()) == identity(handle.lower()) == identity(handle.swapcase()) == handle.lower()
    assert identity("\uff21da") == identity("ADA") == "ada"  # a full-width A is an A
