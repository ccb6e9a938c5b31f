"""The sequencer across processes: two API processes and a worker appending and sequencing at once build one tree
that every process signs alike and that records, witnesses and `verify` check over HTTP; a sequencer SIGKILLed in
the middle of its transaction leaves nothing behind, and the next one takes over."""

from __future__ import annotations

import os
import random
import secrets
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli import main
from ledger.merkle import event_leaf, leaf_hash, root, verify_inclusion
from ledger.notes import Signer, open_checkpoint
from service.log.transparency import write_key
from store.factory import open_store
from tests.ops.conftest import new_key
from tests.serving import ROOT, ApiProcess
from tests.store.conftest import Harness
from tests.store.test_contract import full_log
from tests.workers.processes import WorkerProcess, wait_until

GAME = {"game": "expect-delays", "options": {"max_turns": 4}}


def play(api: ApiProcess, key: str, number: int) -> str:
    """A match played to its end through one API."""
    rng = random.Random(number)
    with httpx.Client(base_url=api.url, timeout=30) as http:
        created = http.post("/v1/matches", json={**GAME, "seats": [{"player": "ada"}, {"player": "bob"}]},
                            headers={"Authorization": f"Bearer {key}"}).json()
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        while to_move := http.get(f"/v1/matches/{created['id']}").json()["to_move"]:
            auth = {"Authorization": f"Bearer {tokens[to_move[0]]}"}
            legal = http.get(f"/v1/matches/{created['id']}/legal-moves", headers=auth).json()
            answer = http.post(f"/v1/matches/{created['id']}/moves", headers=auth,
                               json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
            assert answer.status_code == 201, answer.text
    return str(created["id"])


def test_two_apis_and_a_worker_build_one_tree(pg_clean_url: str, redis_url: str, tmp_path: Path) -> None:
    key_file = tmp_path / "log.key"
    write_key(key_file, Signer.generate("turnstile.test/log"))
    queue = f"test-log-{secrets.token_hex(4)}"
    env = {"TURNSTILE_DATABASE_URL": pg_clean_url, "TURNSTILE_REDIS_URL": redis_url, "TURNSTILE_QUEUE": queue,
           "TURNSTILE_LOG_KEY": str(key_file)}
    store = open_store(pg_clean_url)
    app_key = new_key(store, "log")
    apis = [ApiProcess(tmp_path / f"api{n}.log", **env).launch() for n in range(2)]
    worker = WorkerProcess(pg_clean_url, redis_url, queue, TURNSTILE_LOG_KEY=str(key_file))
    try:
        for api in apis:
            api.wait_ready(120)  # two servers starting at once on a busy machine
        worker.start()
        first = play(apis[0], app_key, 0)
        wait_until(lambda: httpx.get(apis[1].url + "/v1/log/checkpoint").status_code == 200, 30, "a checkpoint")
        kept = tmp_path / "kept.checkpoint"
        kept.write_text(httpx.get(apis[1].url + "/v1/log/checkpoint").json()["checkpoint"])
        state = tmp_path / "witness.checkpoint"
        assert main(["log", "watch", "--url", apis[0].url, "--state", str(state), "--once"]) == 0
        with ThreadPoolExecutor(4) as pool:
            ids = [first, *pool.map(lambda n: play(apis[n % 2], app_key, n), range(1, 9))]
        events = full_log(store)
        wait_until(lambda: store.log_size() == len(events), 30, "the tree to hold every event")
        verifier = Signer.parse(key_file.read_text()).verifier()
        wait_until(lambda: open_checkpoint(httpx.get(apis[0].url + "/v1/log/checkpoint").json()["checkpoint"],
                                           verifier).size == len(events), 30, "a checkpoint of the whole tree")
        checkpoint = open_checkpoint(httpx.get(apis[1].url + "/v1/log/checkpoint").json()["checkpoint"], verifier)
        leaves = [leaf_hash(event_leaf(e.match_id, e.version, e.hash)) for e in events]
        assert checkpoint.root == root(leaves)  # one tree: every event once, in log order
        for event in random.Random(1).sample(events, 10):
            proof = httpx.get(apis[0].url + "/v1/log/proofs/inclusion",
                              params={"match_id": event.match_id, "version": event.version}).json()
            verify_inclusion(proof["leaf_index"], proof["tree_size"], leaf_hash(event_leaf(
                event.match_id, event.version, event.hash)), [bytes.fromhex(h) for h in proof["audit_path"]],
                checkpoint.root)
        record = tmp_path / "record.ndjson"
        record.write_bytes(httpx.get(f"{apis[1].url}/v1/matches/{ids[3]}/export").content)
        assert main(["verify", str(record), "--key", str(key_file)]) == 0
        assert main(["verify", str(record), "--url", apis[0].url, "--checkpoint", str(kept)]) == 0
        assert main(["log", "watch", "--url", apis[1].url, "--state", str(state), "--once"]) == 0
    finally:
        for api in apis:
            api.kill()
        worker.kill()
        store.close()


SEQUENCER = """
import sys, time
from store.factory import open_store
store = open_store(sys.argv[1])
def stall(*_):
    print("signing", flush=True)
    time.sleep(60)
store.sequence_log(limit=10_000, sign=stall)
"""


@pytest.mark.parametrize("harness", ["sqlite-file", pytest.param("postgres", marks=pytest.mark.postgres)],
                         indirect=True)
def test_a_sequencer_killed_mid_transaction_leaves_nothing_and_the_next_takes_over(harness: Harness) -> None:
    from tests.store.test_contract import play as append
    from tests.store.test_contract import start

    ids = [start(harness.store) for _ in range(5)]
    for match_id in ids:
        append(harness.store, match_id, 2, 3)
    process = subprocess.Popen([sys.executable, "-c", SEQUENCER, harness.url], cwd=ROOT, stdout=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert process.stdout is not None and process.stdout.readline() == b"signing\n"  # leaves written, uncommitted
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
    assert harness.store.log_size() == 0
    assert harness.raw("SELECT count(*) FROM log_leaves") == [(0,)]

    def sequenced() -> Any:
        done = harness.store.sequence_log()  # None while the killed one's lock is still being released
        return done is not None and done[0] == 25

    wait_until(sequenced, 30, "a new sequencer to take the log")
    leaves = [leaf_hash(event_leaf(e.match_id, e.version, e.hash)) for e in full_log(harness.store)]
    assert harness.store.sequence_log() == (25, root(leaves))
