"""Issue 41: a search bot, and a competitive game's `greedy` (domain/greedy.py), is provably honest. Its every move
is re-decided by `verify` from its seat's view (the `bots` check, ledger/bot_moves.py), so a server whose bot looks
at the hidden cards is caught.

The dishonest server here is the project's own service with one change: its bot is handed the full table (the same
bot and key, but its "sample" of the table is the real one: it sees the other hand and the deck's order). Its moves
are legal and every other check passes; `bots` fails at the first move the honest bot would not make."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from cli import main
from domain import bots, match
from domain.codec import to_builtins
from domain.engine import Command, Game
from domain.lifecycle import AddEntropy
from domain.match import MatchState
from ledger.bot_moves import decisions
from ledger.chain import canonical
from ledger.records import Record, encode_record
from ledger.verify import verify_record
from service.matches.matches import MatchService
from service.reads.audit import Audit
from settings import VERIFY_BOT_SAMPLE
from store.base import EventStore

GAME = "expect-delays"
PLAYERS = ["ada", "bot:ismcts-1"]
GREEDY = ["ada", "bot:greedy"]  # the generic one-move bot (domain/greedy.py), played inline after each move of ada's
OPTIONS = {"max_turns": 8}


def peeking_next_bot_move(game: Game[Any], state: MatchState, seed: str) -> tuple[int, Command] | None:
    """The dishonest bot: the honest search or greedy, but its determinization hands it the real table."""
    found = bots.bot_to_move(game, state)
    if found is None:
        return None
    seat, name = found
    seer = dataclasses.replace(game, determinize=lambda table, _seat, _rng: table)
    return seat, bots.policy(seer, name)(state.game_state, seat, bots.bot_rng(seed, state.version))


def played_record(store: EventStore, seed: int, options: dict[str, Any] | None = None, *,
                  server_seed: bool = False, players: list[str] = PLAYERS) -> Record:
    """ada (random legal moves) against `ismcts-1` (or the `players` given) to the end, exported as the operator's
    full record. A caller's seed (a test's) keeps the record the same on every run; `server_seed`: the server's
    secret seed, as in play."""
    service = MatchService(store)
    match_id = service.create(GAME, players, options or OPTIONS, owner="tests",
                              seed=None if server_seed else f"honesty-{seed}").record.id
    if (options or {}).get("entropy") == "seats":
        service.play(match_id, 0, AddEntropy(entropy="ada's dice"), expected_version=None, command_id=None)
    rng = random.Random(seed)
    for _ in range(500):
        loaded = service.load(match_id)
        if loaded.state.finished:
            break
        if 0 in match.to_move(loaded.game, loaded.state):
            service.play(match_id, 0, rng.choice(match.legal(loaded.game, loaded.state, 0)), expected_version=None,
                         command_id=None)
        else:  # a search bot's turn, which the service plays in the background (bot_runner.py, the sweep)
            service.play_bots(loaded, searching=True)
    return Audit(store).export(match_id, None)


@pytest.mark.parametrize("players", [PLAYERS, GREEDY], ids=["search", "greedy"])
def test_every_move_of_an_honest_search_bot_is_re_decided(store: EventStore, players: list[str]) -> None:
    record = played_record(store, 1, players=players)
    verdict = verify_record(record)
    assert verdict.code == "verified", verdict.message
    bots_check = next(check for check in verdict.checks if check.name == "bots")
    assert bots_check.status == "passed" and "re-decided from their seat's view" in bots_check.detail
    assert int(bots_check.detail.split()[0]) >= 4  # the bot really moved, and each move was re-run
    sampled = verify_record(record, bot_sample=2, bot_salt=b"verifier's own")
    assert sampled.code == "partial" and sampled.ok
    assert "2 of" in next(check for check in sampled.checks if check.name == "bots").detail


@pytest.mark.parametrize("options", [{"max_turns": 3}, {"max_turns": 3, "entropy": "seats"}],
                         ids=["server-seed", "seats-entropy"])
def test_the_bot_key_is_the_revealed_seed_whoever_made_it(store: EventStore, options: dict[str, Any]) -> None:
    """The server's secret seed, and a deal from the seats' entropy: the seed the record reveals is the one the bot
    drew from, so every bot move re-decides."""
    verdict = verify_record(played_record(store, 4, options, server_seed=True))
    assert verdict.code == "verified", verdict.message
    assert next(check for check in verdict.checks if check.name == "bots").status == "passed"


@pytest.mark.parametrize("players", [PLAYERS, GREEDY], ids=["search", "greedy"])
def test_a_bot_that_sees_the_hidden_table_is_caught(store: EventStore, monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    players: list[str]) -> None:
    monkeypatch.setattr(bots, "next_bot_move", peeking_next_bot_move)
    record = played_record(store, 2, players=players)
    # The record is the attack's: somewhere the peeking bot chose what the honest bot would not.
    game = match_game(record)
    states = match_states(game, record)
    differing = [record.lines[position].version for position, seat, level, state in decisions(game, record, states)
                 if canonical(to_builtins(bots.policy(game, level)(
                     state.game_state, seat, bots.bot_rng(str(record.header.seed), state.version))))
                 != canonical(record.lines[position].command)]
    assert differing, "the peeking bot never chose differently: the attack proves nothing"
    verdict = verify_record(record)
    failed = [(c.name, c.code, c.version) for c in verdict.checks if c.status == "failed"]
    assert failed == [("bots", "bot-mismatch", differing[0])], verdict.message
    assert (verdict.ok, verdict.code, verdict.failed_version) == (False, "bot-mismatch", differing[0])
    assert {"chain", "seed", "redecide", "outcome"} <= set(verdict.passed)  # legal, intact, and fairly dealt
    path = tmp_path / "peeking.ndjson"
    path.write_bytes(encode_record(record))
    assert main(["verify", str(path)]) == 1
    assert "bot-mismatch" in capsys.readouterr().out


def match_game(record: Record) -> Game[Any]:
    from domain.catalog import game_of
    return game_of(record.header.game, record.header.rules_version)


def match_states(game: Game[Any], record: Record) -> list[MatchState]:
    from ledger.rules_checks import check_fold
    fold, states = check_fold(game, record)
    assert fold.status == "passed"
    return states


def test_turnstile_verify_re_runs_all_or_a_sample_of_the_bot_moves(store: EventStore, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`--bots all` (the default) re-runs every bot move; `--bots sample=N` N of them (partial); nonsense is a usage
    error."""
    path = tmp_path / "honest.ndjson"
    path.write_bytes(encode_record(played_record(store, 1)))
    assert main(["verify", "--json", str(path)]) == 0
    every = next(c for c in json_verdict(capsys)["checks"] if c["name"] == "bots")
    assert every["status"] == "passed"
    assert main(["verify", "--json", "--bots", "sample=1", str(path)]) == 0
    verdict = json_verdict(capsys)
    assert verdict["code"] == "partial"
    assert next(c for c in verdict["checks"] if c["name"] == "bots")["detail"].startswith("1 of ")
    with pytest.raises(SystemExit):
        main(["verify", "--bots", "sample=0", str(path)])


def test_post_verifications_catches_the_peeking_bot(store: EventStore, client: TestClient,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The API re-runs a sample of at most VERIFY_BOT_SAMPLE bot moves; this short match has no more, so all."""
    monkeypatch.setattr(bots, "next_bot_move", peeking_next_bot_move)
    record = played_record(store, 2, {"max_turns": 3})
    game = match_game(record)
    assert len(decisions(game, record, match_states(game, record))) <= VERIFY_BOT_SAMPLE
    answer = client.post("/v1/verifications", json={"record": encode_record(record).decode()})
    assert answer.status_code == 200, answer.text
    assert (answer.json()["ok"], answer.json()["code"]) == (False, "bot-mismatch")


def json_verdict(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = capsys.readouterr().out
    return dict(msgspec.json.decode(out.strip().splitlines()[-1]))
