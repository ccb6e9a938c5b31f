"""`turnstile verify` on tournaments: an exported record file (what GET /v1/tournaments/{id}/record gives), a
tampered one, and a tournament of the store with every match it opened."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from cli import main
from domain.tournaments.commands import CreateTournament, EntryOf
from service.matches.matches import MatchService
from service.reads.audit import Audit
from service.tournaments import records as tournament_exports
from service.tournaments.tournaments import TournamentService
from store.factory import open_store


def test_verify_reads_tournament_records_and_stored_tournaments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    store = open_store(url)
    tournaments = TournamentService(store, MatchService(store))
    bots = tuple(EntryOf(bot="random", name=f"r{i}") for i in range(4))
    created = tournaments.create("club", CreateTournament(game="touched-on", format="knockout", entrants=bots,
                                                           seats=2, seed_commitment=""))
    loaded = tournaments.start(created.loaded.record.id, "club")
    document = msgspec.to_builtins(tournament_exports.export(loaded, Audit(store), tournaments.revealed_seed(loaded)))
    store.close()
    honest, forged = tmp_path / "cup.json", tmp_path / "forged.json"
    honest.write_text(json.dumps(document))
    document["header"]["seed"] = "0" * 64
    forged.write_text(json.dumps(document))
    assert main(["verify", str(honest)]) == 0
    assert "OK   " in capsys.readouterr().out
    assert main(["verify", str(honest), str(forged)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "seed-mismatch" in out
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", url)
    assert main(["verify", "--json", "--tournament", loaded.record.id]) == 0
    assert msgspec.json.decode(capsys.readouterr().out)["code"] == "verified"
    assert main(["verify", "--tournament", "no-such-tournament"]) == 2
