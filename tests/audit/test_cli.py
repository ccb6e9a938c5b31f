"""`turnstile verify` and `turnstile replay`, on record files and on the store."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import msgspec
import pytest

from api.schemas import Handle
from cli import main
from domain import match
from domain.catalog import GAMES, by_slug
from domain.codec import event_from_builtins
from ledger.records import encode_record, parse_record
from service.matches.matches import MatchService
from store.factory import open_store
from tests.audit.conftest import play_moves, small_setup
from tests.audit.records import record_of


@pytest.fixture
def records(tmp_path: Path) -> list[Path]:
    """A record file of a finished match of every game."""
    paths = []
    for game in GAMES:
        path = tmp_path / f"{game.slug}.ndjson"
        path.write_bytes(encode_record(record_of(game)))
        paths.append(path)
    return paths


def test_verify_accepts_honest_records(records: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """Every record file verifies: exit status 0, one OK line per record."""
    assert main(["verify", *map(str, records)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(records) and all(line.startswith("OK") and ": verified:" in line for line in out)


def test_verify_names_the_tampered_event(records: list[Path], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A changed event fails with exit status 1 and the failing version; --json prints the verdict."""
    rows = records[0].read_text().splitlines(keepends=True)
    rows[7] = rows[7].replace('"recorded_at":"2026', '"recorded_at":"2025')
    forged = tmp_path / "forged.ndjson"
    forged.write_text("".join(rows))
    assert main(["verify", str(records[0]), str(forged)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "chain-broken" in out and "version 7" in out
    assert main(["verify", "--json", str(forged)]) == 1
    verdict = msgspec.json.decode(capsys.readouterr().out)
    assert (verdict["ok"], verdict["code"], verdict["failed_version"]) == (False, "chain-broken", 7)


def test_verify_needs_something_to_verify(capsys: pytest.CaptureFixture[str]) -> None:
    """No record, --match or --all: a usage error (2)."""
    assert main(["verify"]) == 2
    assert main(["verify", "/no/such/record.ndjson"]) == 2


def test_verify_matches_of_the_store(store_url: str, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """--match and --all verify the store named by TURNSTILE_DATABASE_URL: finished ones fully, others partly."""
    store = open_store(store_url)
    service = MatchService(store)
    ids = {}
    for game in GAMES:
        seats, options = small_setup(game)
        for moves in (3, 20_000):
            created = service.create(game.slug, [f"p{i}" for i in range(seats)], options, seed=f"cli-{moves}")
            play_moves(service, created.record.id, game, f"cli-{moves}", moves)
            ids[(game.slug, moves)] = created.record.id
    store.close()
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", store_url)
    assert main(["verify", "--json", "--all"]) == 0
    verdicts = [msgspec.json.decode(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(v["match_id"] for v in verdicts) == sorted(ids.values())
    for verdict in verdicts:
        assert verdict["ok"] and verdict["code"] == ("verified" if verdict["finished"] else "verified-so-far"), verdict
    finished = ids[(GAMES[0].slug, 20_000)]
    assert main(["verify", "--match", finished]) == 0
    assert ": verified:" in capsys.readouterr().out
    assert main(["verify", "--match", "no-such-match"]) == 2


def test_replay_prints_the_table_at_a_version(records: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    """The picture after event N is the game's rendering of the fold of the first N events."""
    for path in records:
        record = parse_record(path.read_bytes())
        game = by_slug(record.header.game)
        assert game is not None
        version = len(record.lines) // 2
        state = match.fold(game, [event_from_builtins(game, line.event) for line in record.lines[:version]])
        assert main(["replay", str(path), "--to", str(version)]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"{game.slug}, version {version} of {len(record.lines)}\n")
        assert out.endswith(game.render(state.game_state))
    assert main(["replay", str(records[0])]) == 0
    assert "ended: " in capsys.readouterr().out.splitlines()[0]
    assert main(["replay", str(records[0]), "--to", "1"]) == 0
    assert "no table yet" in capsys.readouterr().out
    assert main(["replay", str(records[0]), "--to", "100000"]) == 2


def test_replay_from_the_store(store_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """--match replays a stored match (the operator sees it all); a record redacted for a seat cannot be."""
    store = open_store(store_url)
    service = MatchService(store)
    game = GAMES[-1]
    seats, options = small_setup(game)
    created = service.create(game.slug, [f"p{i}" for i in range(seats)], options, seed="replay")
    version = play_moves(service, created.record.id, game, "replay", 6)
    state = service.load(created.record.id).state
    from service.reads.audit import Audit

    redacted = Audit(store).export(created.record.id, None)
    store.close()
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", store_url)
    assert main(["replay", "--match", created.record.id]) == 0
    assert capsys.readouterr().out.endswith(game.render(state.game_state))
    assert main(["replay", "--match", created.record.id, "--to", str(version + 1)]) == 2
    if redacted.redacted:
        path = tmp_path / "redacted.ndjson"
        path.write_bytes(encode_record(redacted))
        assert main(["replay", str(path)]) == 2
        assert "withholds hidden information" in capsys.readouterr().err


def test_verify_all_reports_a_match_of_a_game_no_longer_served(store_url: str, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A stored match of a retired game gets a verdict (unknown-game) instead of stopping the sweep."""
    from domain.codec import to_builtins
    from domain.rng import seed_commitment
    from ledger.events import NewEvent, NewMatch, SeatRecord
    from ledger.sealing import sealed

    game = GAMES[0]
    seats, options = small_setup(game)
    opened = match.open_match(game, [f"p{i}" for i in range(seats)], options, "retired")
    events = sealed(game, "retired", 2, 1, opened, None)
    retired = {**to_builtins(opened[0]), "game": "retired-game"}
    events[0] = NewEvent(type="match.started", payload=retired, public=retired, commitment=events[0].commitment)
    store = open_store(store_url)
    store.create_match(NewMatch(
        id="retired", game="retired-game", rules_version="1",
        seats=tuple(SeatRecord(seat=i, player=f"p{i}", token_hash="") for i in range(seats)),
        options=retired["options"], seed="retired", seed_commitment=seed_commitment("retired")), events)
    store.close()
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", store_url)
    assert main(["verify", "--all"]) == 1
    assert "FAIL retired (retired-game" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "says"), [
    (["simulate", "--game", "expect-delays", "--seats", "5", "--matches", "1"], "bad-seat-count"),
    (["keys", "create", "x"], "unknown store URL scheme"),
    (["projections", "no-such-projection"], "no projection is called no-such-projection"),
    (["worker", "--burst"], "TURNSTILE_REDIS_URL"),
])
def test_user_errors_are_one_line_and_exit_2(argv: list[str], says: str, monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistake of the user's is one clear line on standard error, never a traceback."""
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", f"sqlite:///{tmp_path / 'x.db'}")
    monkeypatch.delenv("TURNSTILE_REDIS_URL", raising=False)
    if argv[0] == "keys":
        monkeypatch.setenv("TURNSTILE_DATABASE_URL", "mysql://nowhere/db")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_every_option_shows_its_default_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    """`--help` of each command names what an option defaults to, and the values it allows."""
    for command, shown in ((["serve"], "(default: 8000)"), (["simulate"], "(default: 20)"),
                           (["simulate"], "expect-delays,mass-transit"), (["worker"], "TURNSTILE_SWEEP_SECONDS"),
                           (["replay"], "default: the last")):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert shown in out, (command, out)


HANDLE = typing.get_args(Handle)[1].pattern  # what a person's handle must match


def test_simulated_history_is_under_handles_no_person_can_take(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Found: `simulate` played as ada and grace, who then topped the leaderboards beside the README's own ada.
    Its players carry the `sim:` prefix, which a person's handle cannot hold (no colon: api.schemas.Handle)."""
    store_url = f"sqlite:///{tmp_path / 'sim.db'}"
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", store_url)
    monkeypatch.delenv("TURNSTILE_REDIS_URL", raising=False)
    assert main(["simulate", "--game", "touched-on", "--matches", "2", "--seed", "1"]) == 0
    capsys.readouterr()
    store = open_store(store_url)
    try:
        players = {seat.player for record in store.list_matches(limit=10) for seat in record.seats}
    finally:
        store.close()
    assert players and all(p.startswith("sim:") and not re.fullmatch(HANDLE, p) for p in players), players
