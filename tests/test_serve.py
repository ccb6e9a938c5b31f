"""`turnstile serve`: worker processes by store, an app factory per process, projections off the request path."""

from __future__ import annotations

import gc
import math
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient
from uvicorn.importer import import_from_string
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

import cli
from api.asgi import create
from api.one_write import PROTOCOL
from cli import serve
from service.reads import notify
from settings import Settings, SettingsError


def test_the_default_is_one_worker_on_sqlite_and_one_per_cpu_on_postgresql() -> None:
    assert serve.default_workers("sqlite:///turnstile.db", cpus=8) == 1
    assert serve.default_workers("sqlite:///:memory:", cpus=2) == 1
    assert serve.default_workers("postgresql://db/x", cpus=8) == 8
    assert serve.default_workers("postgres://db/x", cpus=None) >= 1


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any]]:
    """What `turnstile serve` handed to uvicorn.run (which is not run)."""
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append({"app": app, **kwargs}))
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", f"sqlite:///{tmp_path / 'serve.db'}")
    monkeypatch.delenv("TURNSTILE_WORKERS", raising=False)
    return calls


def test_serve_hands_uvicorn_the_factory_a_c_parser_writing_once_and_uvloop(ran: list[dict[str, Any]]) -> None:
    assert cli.main(["serve", "--port", "8123"]) == 0
    (call,) = ran
    assert call["app"] == "api.asgi:create" and call["factory"] is True
    assert (call["workers"], call["port"], call["http"], call["loop"]) == (1, 8123, PROTOCOL, "uvloop")
    assert issubclass(import_from_string(PROTOCOL), HttpToolsProtocol)  # the C parser, writing once per answer
    assert call["access_log"] is False


def test_workers_come_from_the_option_else_the_setting_else_the_store(
        ran: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli.main(["serve", "--workers", "3"]) == 0
    monkeypatch.setenv("TURNSTILE_WORKERS", "2")
    assert cli.main(["serve"]) == 0
    assert cli.main(["serve", "--workers", "4"]) == 0
    assert [c["workers"] for c in ran] == [3, 2, 4]


@pytest.mark.parametrize("bad", ["0", "-1", "two"])
def test_a_worker_count_below_one_is_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "--workers", bad])
    assert exited.value.code == 2
    assert "--workers" in capsys.readouterr().err


def test_turnstile_workers_may_not_be_negative() -> None:
    with pytest.raises(SettingsError, match="TURNSTILE_WORKERS may not be negative"):
        Settings.from_env({"TURNSTILE_WORKERS": "-1"})
    with pytest.raises(SettingsError, match="TURNSTILE_INPROCESS_PROJECTION_BATCH must be positive"):
        Settings.from_env({"TURNSTILE_INPROCESS_PROJECTION_BATCH": "0"})


def test_a_store_that_cannot_open_is_one_line_before_any_worker_starts(
        ran: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", "mysql://nowhere/x")
    assert cli.main(["serve"]) == 2
    assert ran == []
    assert "unknown store URL scheme" in capsys.readouterr().err


def test_the_factory_builds_the_app_from_the_environment_and_closes_its_store(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", f"sqlite:///{tmp_path / 'factory.db'}")
    monkeypatch.delenv("TURNSTILE_REDIS_URL", raising=False)
    monkeypatch.setenv("TURNSTILE_STATE_CACHE_SIZE", "7")
    app = create()
    assert isinstance(app.state.service.notifier, notify.InProcessNotifier)
    assert app.state.service.cache._size == 7
    with TestClient(app) as client:
        assert client.get("/health").json() == {"status": "ok"}
        assert client.get("/v1/games").status_code == 200
    assert not app.state.service.notifier.thread.is_alive()  # closed by the app's shutdown
    assert (tmp_path / "factory.db").exists()


def test_the_factory_keeps_what_the_process_made_to_start_out_of_full_collections(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TURNSTILE_DATABASE_URL", f"sqlite:///{tmp_path / 'frozen.db'}")
    monkeypatch.delenv("TURNSTILE_REDIS_URL", raising=False)
    gc.unfreeze()
    app = create()
    assert gc.get_freeze_count() > 10_000  # the app and its runtime, not walked by a full collection
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200


def test_projections_fold_on_their_own_thread_with_their_own_batch(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A move only signals: the fold runs on the runner's thread, never a request's, in batches of the setting."""
    folds: list[tuple[str, int]] = []
    folded = threading.Event()

    def recording_catch_up(store: Any, projections: Any = None, limit: int = 0) -> int:
        folds.append((threading.current_thread().name, limit))
        folded.set()
        return 0

    monkeypatch.setattr(notify, "catch_up", recording_catch_up)
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", inprocess_projection_batch=37,
                        sweep_seconds=60)
    app = create(settings)
    with TestClient(app) as client:
        key = _app_key(app)
        created = client.post("/v1/matches", headers={"Authorization": f"Bearer {key}"},
                              json={"game": "touched-on", "seats": [{"player": "a"}, {"player": "b"}]})
        assert created.status_code == 201
        assert folded.wait(5)
        deadline = time.monotonic() + 1
        while time.monotonic() < deadline and len(folds) < 1:
            time.sleep(0.01)
    assert folds and all(fold == ("turnstile-projections", 37) for fold in folds)


def test_the_in_process_runner_takes_the_small_batch_on_sqlite_only(tmp_path: Path, pg_clean_url: str) -> None:
    """On SQLite a fold holds the one write lock moves wait for: small batches; on PostgreSQL moves never wait for a
    fold, and a batch costs a transaction and a read and write of each document it touches: the workers' batch."""
    from store.factory import open_store

    settings = Settings(inprocess_projection_batch=37, projection_batch=1500, sweep_seconds=60)
    for url, batch in ((f"sqlite:///{tmp_path / 'b.db'}", 37), (pg_clean_url, 1500)):
        store = open_store(url)
        notifier = notify.notifier_for(settings, store)
        try:
            assert isinstance(notifier, notify.InProcessNotifier)
            assert notifier.batch == batch, url
        finally:
            notifier.close()
            store.close()


def _app_key(app: Any) -> str:
    from service.matches.tokens import new_secret, secret_hash

    key = new_secret("app")
    app.state.store.create_app_key("tests", secret_hash(key))
    return key


def test_serve_runs_its_worker_processes_and_stops_gracefully(tmp_path: Path) -> None:
    """`turnstile serve --workers 2` answers, each worker starts and shuts its app down, and SIGTERM exits 0."""
    import httpx

    from tests.serving import ApiProcess

    log = tmp_path / "serve.log"
    server = ApiProcess(log, workers=2, TURNSTILE_DATABASE_URL=f"sqlite:///{tmp_path / 'served.db'}").start()
    try:
        assert httpx.get(f"{server.url}/v1/games", timeout=5).status_code == 200
        deadline = time.monotonic() + 60
        while log.read_text().count("Application startup complete") < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        code = server.stop()
    text = log.read_text()
    assert code == 0, text
    assert "with 2 worker processes" in text
    assert text.count("Application startup complete") == 2 and text.count("Application shutdown complete") == 2


def test_the_runner_folds_the_appends_of_its_rest_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy server runs a few catch-ups a second, not one per move: appends while it rests wake it once."""
    runs: list[float] = []
    monkeypatch.setattr(notify, "catch_up", lambda store, projections=None, limit=0: runs.append(time.monotonic()))
    runner = notify.InProcessNotifier(object(), sweep_seconds=60, batch=10, interval_s=0.5)
    try:
        runner.appended()
        deadline = time.monotonic() + 5
        while not runs and time.monotonic() < deadline:
            time.sleep(0.01)
        for _ in range(20):  # while it rests
            runner.appended()
        while len(runs) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)
    finally:
        runner.close()
    assert len(runs) == 2, "twenty appends during the rest: one more catch-up"
    assert runs[1] - runs[0] >= 0.5


def test_forwarded_headers_are_believed_only_from_the_proxies_the_operator_names(
        ran: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")  # uvicorn's own variable no longer decides
    assert cli.main(["serve"]) == 0
    monkeypatch.setenv("TURNSTILE_TRUSTED_PROXIES", "10.0.0.5, 10.1.0.0/16")
    assert cli.main(["serve"]) == 0
    assert [(c["proxy_headers"], c["forwarded_allow_ips"]) for c in ran] == [
        (False, []), (True, ["10.0.0.5", "10.1.0.0/16"])]
    with pytest.raises(SettingsError, match="TRUSTED_PROXIES"):
        Settings.from_env({"TURNSTILE_TRUSTED_PROXIES": "10.0.0.5,proxy.local"})


def test_a_caller_on_loopback_cannot_rotate_x_forwarded_for_past_the_address_limit(tmp_path: Path) -> None:
    """The attack: from 127.0.0.1, a new X-Forwarded-For per request once got a new address bucket each time (uvicorn
    believes loopback by default). With no trusted proxy, 20 requests at 1/s, burst 5, are mostly refused; with
    127.0.0.1 named as the proxy, each forwarded address has its own bucket again. The bucket refills at 0.2/s and
    what got through is held to the burst plus what refilled in the time the requests took (a busy machine is slow)."""
    import httpx

    from tests.serving import ApiProcess

    rate, burst = 0.2, 5
    limits = {"TURNSTILE_RATE_ADDRESS_PER_S": str(rate), "TURNSTILE_RATE_ADDRESS_BURST": str(burst)}
    statuses: dict[str, list[int]] = {}
    took: dict[str, float] = {}
    for proxies in ("", "127.0.0.1"):
        server = ApiProcess(tmp_path / f"serve{proxies}.log", TURNSTILE_TRUSTED_PROXIES=proxies,
                            TURNSTILE_DATABASE_URL=f"sqlite:///{tmp_path / 'served.db'}", **limits).start()
        try:
            started = time.monotonic()
            statuses[proxies] = [httpx.get(f"{server.url}/v1/games", timeout=5,
                                           headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
                                 for n in range(20)]
            took[proxies] = time.monotonic() - started
        finally:
            server.stop()
    assert statuses[""].count(200) <= burst + math.ceil(took[""] * rate), (statuses, took)
    assert statuses[""].count(429) >= 10, (statuses, took)
    assert statuses["127.0.0.1"] == [200] * 20
