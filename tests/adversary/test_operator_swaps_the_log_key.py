"""The log's key: `turnstile log keygen`, `TURNSTILE_LOG_KEY`, and the key the embedded default makes for itself."""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest

from cli import main
from ledger.notes import Signer, Verifier
from service.log.transparency import LogKeyError, key_for
from settings import Settings


def test_keygen_writes_a_private_key_once_and_prints_its_public_half(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "log.key"
    assert main(["log", "keygen", "--out", str(out), "--name", "turnstile.example/log"]) == 0
    printed = capsys.readouterr().out.strip()
    signer = Signer.parse(out.read_text())
    assert signer.name == "turnstile.example/log" and Verifier.parse(printed) == signer.verifier()
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert main(["log", "keygen", "--out", str(out)]) == 2  # never over an existing key
    assert Signer.parse(out.read_text()) == signer
    assert main(["log", "keygen", "--out", str(tmp_path / "x"), "--name", "has space"]) == 2


def test_the_setting_names_the_key_file(tmp_path: Path) -> None:
    out = tmp_path / "log.key"
    main(["log", "keygen", "--out", str(out)])
    settings = Settings.from_env({"TURNSTILE_LOG_KEY": str(out)})
    assert key_for(settings.log_key, "postgresql://db") == Signer.parse(out.read_text())
    (tmp_path / "bad.key").write_text("not a key")
    with pytest.raises(LogKeyError, match="not a log key"):
        key_for(str(tmp_path / "bad.key"), "sqlite:///x.db")
    with pytest.raises(LogKeyError, match="cannot read"):
        key_for(str(tmp_path / "missing.key"), "sqlite:///x.db")


def test_the_embedded_default_makes_its_key_beside_its_file_and_says_so(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    database = tmp_path / "turnstile.db"
    with caplog.at_level(logging.WARNING, logger="turnstile.transparency"):
        made = key_for(None, f"sqlite:///{database}")
    assert made is not None and Path(f"{database}.logkey").exists()
    assert any("made a new transparency log key" in r.getMessage() for r in caplog.records)
    assert key_for(None, f"sqlite:///{database}") == made  # the next start reads it back
    assert key_for(None, "sqlite:///:memory:") is not None  # a throwaway store: a throwaway key
    assert key_for(None, "postgresql://db") is None  # PostgreSQL: the operator's key, or no signatures


def test_a_server_started_with_another_key_under_a_signed_tree_refuses_to(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 39: a server restarted with a new log key under an existing tree served the old checkpoint and signed
    the next under the new key, with no word to the operator. Now opening the log (every API process and worker)
    and `turnstile serve` refuse, naming the key that signed the tree; the right key, or a tree with no checkpoint
    yet, opens as before."""
    from service.log.transparency import Transparency, check_key, open_log
    from service.matches.matches import MatchService
    from store.factory import open_store

    url = f"sqlite:///{tmp_path / 'store.db'}"
    store = open_store(url)
    try:
        first, other = Signer.generate("play.test/log"), Signer.generate("play.test/log")
        (tmp_path / "first.key").write_text(first.text() + "\n")
        (tmp_path / "other.key").write_text(other.text() + "\n")
        check_key(store, other)  # nothing signed yet: any key may start the tree
        MatchService(store).create("expect-delays", ["ada", "bob"], None)
        Transparency(store, first).catch_up()
        assert store.latest_checkpoint() is not None
        assert open_log(store, str(tmp_path / "first.key"), url).signer == first
        with pytest.raises(LogKeyError, match="did not sign this tree's last checkpoint"):
            open_log(store, str(tmp_path / "other.key"), url)
    finally:
        store.close()
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", url)
    monkeypatch.setenv("TURNSTILE_LOG_KEY", str(tmp_path / "other.key"))
    assert main(["serve", "--port", "1"]) == 2  # refused before any worker starts: nothing is served
    assert "did not sign this tree's last checkpoint" in capsys.readouterr().err
