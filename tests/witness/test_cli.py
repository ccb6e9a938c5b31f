"""`turnstile witness keygen` and `turnstile witness serve` as an operator runs them: a real process on a port,
stopped and started again on the same state file."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from cli import main
from ledger.cosignature import CosignatureVerifier, Cosigner
from tests.witness.conftest import Log, body

ROOT = Path(__file__).resolve().parents[2]


def test_keygen_writes_a_private_key_and_prints_the_verifier_key(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "witness.key"
    assert main(["witness", "keygen", "--out", str(out), "--name", "witness.test/w1"]) == 0
    vkey = capsys.readouterr().out.strip()
    cosigner = Cosigner.parse(out.read_text())
    assert CosignatureVerifier.parse(vkey) == cosigner.verifier() and out.stat().st_mode & 0o777 == 0o600
    assert main(["witness", "keygen", "--out", str(out), "--name", "witness.test/w1"]) == 2  # never overwritten
    assert "never overwritten" in capsys.readouterr().err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "cli", "witness", "serve", *args], cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, stderr=subprocess.PIPE)


def wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else b""
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the witness did not start")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    process.wait(timeout=15)


def test_serve_keeps_its_state_across_a_restart(tmp_path: Path) -> None:
    key, logs, state = tmp_path / "witness.key", tmp_path / "logs.txt", f"sqlite:///{tmp_path / 'witness.db'}"
    assert main(["witness", "keygen", "--out", str(key), "--name", "witness.test/w1"]) == 0
    verifier = Cosigner.parse(key.read_text()).verifier()
    log = Log()
    logs.write_text(f"# origin and verifier key\n{log.signer.name} {log.signer.verifier().text()}\n")
    port = free_port()
    args = ["--key", str(key), "--logs", str(logs), "--state", state, "--listen", f"127.0.0.1:{port}",
            "--prefix", "/w"]
    url = f"http://127.0.0.1:{port}/w/add-checkpoint"
    process = serve(args)
    try:
        wait_for(port, process)
        answer = httpx.post(url, content=body(0, log.note(5)))
        assert answer.status_code == 200
        verifier.open(log.note(5) + answer.text)
    finally:
        stop(process)
    process = serve(args)
    try:
        wait_for(port, process)
        answer = httpx.post(url, content=body(0, log.note(9)))
        assert (answer.status_code, answer.headers["content-type"], answer.text) == (409, "text/x.tlog.size", "5\n")
        answer = httpx.post(url, content=body(5, log.note(9)))
        assert answer.status_code == 200
        verifier.open(log.note(9) + answer.text)
    finally:
        stop(process)


@pytest.mark.parametrize("logs_text, message", [("", "names no log"), ("a.test/log nonsense\n", "line 1")])
def test_serve_refuses_a_bad_logs_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], logs_text: str,
                                       message: str) -> None:
    key, logs = tmp_path / "witness.key", tmp_path / "logs.txt"
    assert main(["witness", "keygen", "--out", str(key), "--name", "witness.test/w1"]) == 0
    logs.write_text(logs_text)
    code = main(["witness", "serve", "--key", str(key), "--logs", str(logs), "--state",
                 f"sqlite:///{tmp_path / 'w.db'}", "--listen", "127.0.0.1:1"])
    assert code == 2 and message in capsys.readouterr().err
