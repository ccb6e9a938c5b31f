"""With Redis configured, search bots' turns are RQ jobs the workers play (issue 41): over the API, a match against
ismcts-1 is answered by a real RQ worker, never by the API process; a tournament of search bots finishes through
the workers (and, without Redis, through the API process's own runner); a job is one a turn (deduplicated), plays
only at its version, and a job no worker ran is the sweep's once late. Redis dead or hung when a turn is to be
queued: the request does not wait, and the API process's runner plays the turn itself (the fallback)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.asgi import create
from cli.background import run_worker
from domain import match
from domain.tournaments.commands import CreateTournament, EntryOf
from service.matches.bot_jobs import BotJobs, job_id
from service.matches.bot_runner import BotRunner
from service.matches.deadlines import sweep
from service.matches.matches import MatchService
from service.matches.tokens import new_secret, secret_hash
from service.runtime import Runtime
from settings import Settings
from store.base import utc_now
from store.factory import open_store
from tests.workers.processes import HungListener, RedisServer, WorkerProcess, wait_until
from workers.jobs import use_matches

GAME = "expect-delays"
SHORT = {"max_turns": 4}
SEARCH_GRACE_S = Settings.search_grace_s  # the sweep leaves a search turn alone this long (a service made as told)
TIMEOUT_S = 1.0  # the enqueue's socket timeout in the fault tests: long, so a move that waited on it stands out


@pytest.fixture
def settings(tmp_path: Path, redis_url: str, rq_queue: str) -> Settings:
    """A deployment of the test's own: a SQLite store, the shared Redis, queues of its own (deleted after)."""
    return Settings(database_url=f"sqlite:///{tmp_path / 'store.db'}", redis_url=redis_url, queue=rq_queue,
                    bot_queue=f"{rq_queue}-bots")  # `rq_queue` forgets both queues after the test


@pytest.fixture
def worker(settings: Settings) -> Iterator[Runtime]:
    """A burst worker's runtime, its match service handed to the bot jobs as `turnstile worker` does; the test
    drains the queues with `drain`."""
    runtime = Runtime.open(settings, "burst")
    use_matches(runtime.service)
    yield runtime
    use_matches(None)
    runtime.close()


def drain(settings: Settings) -> None:
    """Work both queues until empty, in this process (`turnstile worker --burst`'s loop: rq's SimpleWorker)."""
    run_worker(settings, burst=True)


def bot_queue(settings: Settings) -> Any:
    from redis import Redis
    from rq import Queue
    from rq.serializers import JSONSerializer

    return Queue(settings.bot_queue, connection=Redis.from_url(str(settings.redis_url)), serializer=JSONSerializer)


def test_a_match_against_ismcts_1_over_the_api_is_played_by_an_rq_worker(settings: Settings,
                                                                         worker: Runtime) -> None:
    """Each answer to the person's move shows the bot to move; its turn waits in the bot queue as the job of that
    version (the API process does not play it: the match stays there until the worker runs), and the worker's job
    brings the match to the person's turn. Played to the end."""
    from rq.job import Job

    app = create(settings)
    api = app.state.runtime
    key = new_secret("app")
    api.store.create_app_key("tests", secret_hash(key))
    queue = bot_queue(settings)
    rng = random.Random(5)
    with TestClient(app) as client:
        body = {"game": GAME, "seats": [{"player": "ada"}, {"bot": "ismcts-1"}], "options": SHORT}
        created = client.post("/v1/matches", json=body, headers={"Authorization": f"Bearer {key}"}).json()
        match_id, token = created["id"], created["seats"][0]["token"]
        seat = {"Authorization": f"Bearer {token}"}
        turns = 0
        for _ in range(200):
            detail = client.get(f"/v1/matches/{match_id}", headers=seat).json()
            if detail["status"] == "finished":
                break
            if detail["to_move"] == [1]:
                version = detail["version"]
                wanted = job_id(match_id, version)
                wait_until(lambda: wanted in queue.job_ids, 10, "the bot's turn to be queued")  # noqa: B023
                time.sleep(0.2)  # were the API process to play it, it would have by now
                assert client.get(f"/v1/matches/{match_id}").json()["version"] == version
                drain(settings)
                job = Job.fetch(wanted, connection=queue.connection, serializer=queue.serializer)
                assert job.return_value() >= 1  # the worker's job wrote the bot's move
                after = client.get(f"/v1/matches/{match_id}", headers=seat).json()
                assert after["version"] > version and (after["to_move"] == [0] or after["status"] == "finished")
                turns += 1
                continue
            assert detail["to_move"] == [0]
            legal = client.get(f"/v1/matches/{match_id}/legal-moves", headers=seat).json()
            answer = client.post(f"/v1/matches/{match_id}/moves", headers=seat,
                                 json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
            assert answer.status_code == 201, answer.text
        assert client.get(f"/v1/matches/{match_id}").json()["status"] == "finished"
    assert turns >= 1 and api.bots.enqueued == turns  # every turn went to the workers, none was played here


def bot_tournament(service: Any) -> str:
    """Three ismcts-1 bots, round robin (three short matches of bots alone), started: its id."""
    entrants = tuple(EntryOf(bot="ismcts-1", name=f"s{i}") for i in range(3))
    command = CreateTournament(game=GAME, format="round-robin", entrants=entrants, seats=2, seed_commitment="",
                               options=SHORT)
    tournament_id = service.create("club", command).loaded.record.id
    service.start(tournament_id, "club")
    return tournament_id


def assert_played_out(runtime: Runtime, tournament_id: str) -> None:
    """The tournament finished, each of its matches ended, and search bots made moves in them."""
    state = runtime.tournaments.load(tournament_id).state
    assert state.finished
    opened = [m.match_id for r in state.rounds for t in r.matches for m in t]
    assert len(opened) == 3
    for match_id in opened:
        loaded = runtime.service.load(match_id)
        assert loaded.state.finished and all(p.startswith("bot:ismcts-1") for p in loaded.state.players)


def test_a_tournament_of_search_bots_finishes_through_the_workers(settings: Settings, worker: Runtime) -> None:
    api = Runtime.open(settings, "api")
    try:
        tournament_id = bot_tournament(api.tournaments)
        deadline = time.monotonic() + 120
        while not api.tournaments.load(tournament_id).state.finished:
            assert time.monotonic() < deadline, "the workers did not finish the tournament"
            drain(settings)  # the worker's own watcher queues each next turn and each next round's matches
            time.sleep(0.05)
        assert_played_out(api, tournament_id)
        assert api.bots is not None and api.bots.enqueued >= 1
    finally:
        api.close()


def test_a_tournament_of_search_bots_finishes_on_the_api_process_without_redis(tmp_path: Path) -> None:
    runtime = Runtime.open(Settings(database_url=f"sqlite:///{tmp_path / 'store.db'}", redis_url=None), "api")
    try:
        tournament_id = bot_tournament(runtime.tournaments)
        wait_until(lambda: runtime.tournaments.load(tournament_id).state.finished, 120,
                   "the bot runner to finish the tournament")
        assert_played_out(runtime, tournament_id)
        assert runtime.bots is not None and runtime.bots.jobs is None
    finally:
        runtime.close()


def persons_turn(service: MatchService, match_id: str) -> float:
    """Seat 0 plays its first legal move while it is to move; the longest move's seconds."""
    longest = 0.0
    while True:
        loaded = service.load(match_id)
        if 0 not in match.to_move(loaded.game, loaded.state):
            return longest
        began = time.perf_counter()
        service.play(match_id, 0, match.legal(loaded.game, loaded.state, 0)[0], expected_version=None,
                     command_id=None)
        longest = max(longest, time.perf_counter() - began)


def test_one_job_a_turn_played_once_and_a_lost_job_is_the_sweeps(settings: Settings, worker: Runtime) -> None:
    """Asking twice queues one job; the sweep leaves a queued turn alone until it is late, then plays it (as if the
    worker that took the job had crashed); the job, run after, finds the match moved on and writes nothing."""
    from rq.job import Job

    store = open_store(settings.database_url)
    jobs = BotJobs(settings)
    try:
        service = MatchService(store)
        match_id = service.create(GAME, ["ada", "bot:ismcts-1"], SHORT, owner="tests").record.id
        persons_turn(service, match_id)
        version = service.load(match_id).state.version
        assert jobs.enqueue(match_id, version) and jobs.enqueue(match_id, version)
        queue = bot_queue(settings)
        assert queue.job_ids == [job_id(match_id, version)]
        assert sweep(service) == 0 and service.load(match_id).state.version == version  # queued: not the sweep's
        late = utc_now() + timedelta(seconds=SEARCH_GRACE_S + 1)
        assert sweep(service, lambda: late) >= 1
        played = service.load(match_id).state.version
        assert played > version
        drain(settings)
        job = Job.fetch(job_id(match_id, version), connection=queue.connection, serializer=queue.serializer)
        assert job.return_value() == 0  # at another version now: nothing written twice
        assert worker.service.load(match_id).state.version == played
    finally:
        jobs.close()
        store.close()


@pytest.fixture(params=["dead", "hung"])
def broken_redis(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, HungListener | None]]:
    """A Redis URL where a redis-server has just stopped, or where a socket accepts and never answers."""
    if request.param == "hung":
        listener = HungListener()
        yield listener.url, listener
        listener.close()
    else:
        server = RedisServer(tmp_path)
        server.start()
        server.stop()
        yield server.url, None


def test_redis_dead_or_hung_the_move_does_not_wait_and_this_process_plays_the_bot(
        store: Any, broken_redis: tuple[str, HungListener | None]) -> None:
    """The runner's enqueue meets a dead or hung Redis: the person's move answers at once (the enqueue is on the
    runner's thread, with a short timeout), and the runner plays the bot's turn itself; the sweep is not needed."""
    url, listener = broken_redis
    jobs = BotJobs(Settings(redis_url=url, bot_queue="test-unreachable", notify_timeout_s=TIMEOUT_S))
    service = MatchService(store)
    runner = BotRunner(service, jobs)
    service.watchers.append(runner.moved)
    try:
        match_id = service.create(GAME, ["ada", "bot:ismcts-1"], SHORT, owner="tests").record.id
        turns = 0
        for _ in range(3):
            longest = persons_turn(service, match_id)
            assert longest < TIMEOUT_S / 2, f"a move took {longest:.3f} s: it waited on Redis"
            if service.load(match_id).state.finished:
                break
            version = service.load(match_id).state.version

            def bot_played(version: int = version) -> bool:
                loaded = service.load(match_id)
                return loaded.state.version > version and 1 not in match.to_move(loaded.game, loaded.state)

            wait_until(bot_played, 30, "the runner to play the bot's turn itself")
            turns += 1
        assert turns >= 1 and runner.enqueued == 0
        assert jobs.breaker.failed_in_a_row >= 1  # each turn was offered to Redis first, which failed
        assert listener is None or listener.accepted >= 1  # the hung socket was tried, and did not hold the move
    finally:
        runner.close()
        jobs.close()


def test_turnstile_worker_plays_the_queued_turns(settings: Settings) -> None:
    """`turnstile worker` (a child process) takes the turns from the bot queue: played before the sweep's grace, so
    by its jobs, not by its sweep (which leaves a turn alone for `SEARCH_GRACE_S`)."""
    store = open_store(settings.database_url)
    jobs = BotJobs(settings)
    service = MatchService(store)
    runner = BotRunner(service, jobs)
    service.watchers.append(runner.moved)
    child = WorkerProcess(settings.database_url, str(settings.redis_url), settings.queue)  # bot queue: <queue>-bots
    child.start()
    try:
        queue = bot_queue(settings)
        wait_until(lambda: queue.connection.smembers(f"rq:workers:{settings.bot_queue}"), 60, "the worker to start")
        match_id = service.create(GAME, ["ada", "bot:ismcts-1"], SHORT, owner="tests").record.id
        persons_turn(service, match_id)
        version = service.load(match_id).state.version
        began = time.monotonic()
        wait_until(lambda: service.load(match_id).state.version > version, SEARCH_GRACE_S - 2,
                   "the worker to play the bot's turn")
        assert time.monotonic() - began < SEARCH_GRACE_S and runner.enqueued >= 1
    finally:
        child.stop()
        runner.close()
        jobs.close()
        store.close()
