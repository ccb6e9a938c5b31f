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
