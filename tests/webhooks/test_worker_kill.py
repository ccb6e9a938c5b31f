"""A `turnstile worker` SIGKILLed in the middle of a delivery: another sends it again, with the same id."""

from __future__ import annotations

from service.matches.matches import MatchService
from service.outbox.webhooks import Webhooks
from store.factory import open_store
from tests.webhooks.conftest import path
from tests.webhooks.receiver import Receiver, verify
from tests.workers.processes import WorkerProcess

FAST = {"TURNSTILE_WEBHOOK_ALLOW_PRIVATE": "1", "TURNSTILE_WEBHOOK_POLL_S": "0.05", "TURNSTILE_WEBHOOK_TIMEOUT_S": "2",
        "TURNSTILE_WEBHOOK_LEASE_S": "2.5", "TURNSTILE_SWEEP_SECONDS": "0.5"}


def test_a_worker_killed_mid_delivery_is_followed_by_a_redelivery_with_the_same_id(pg_clean_url: str,
                                                                                   redis_url: str, rq_queue: str,
                                                                                   receiver: Receiver) -> None:
    store = open_store(pg_clean_url)
    try:
        store.create_app_key("app-k", "hash-k")
        hanging = path()
        hook = Webhooks(store, allow_private=True).create("app-k", receiver.url(hanging, hang=True),
                                                         ["match.created"])
        MatchService(store).create("metro-x", ["a"], None, owner="app-k")
        queue = rq_queue
        doomed = WorkerProcess(pg_clean_url, redis_url, queue, **FAST)
        doomed.start()
        try:
            receiver.wait_for(lambda: bool(receiver.at(hanging)), 60, "the worker to be in the middle of a delivery")
        finally:
            doomed.kill()  # SIGKILL while the receiver holds the request: the attempt is never recorded
        [cut] = store.deliveries("app-k", hook.id, 10) or []
        assert (cut.status, cut.attempts) == ("pending", 0)
        receiver.behaviours[hanging].hang = False  # the receiver answers from now on
        fresh = WorkerProcess(pg_clean_url, redis_url, queue, **FAST)
        fresh.start()
        try:
            receiver.wait_for(lambda: len(receiver.at(hanging)) >= 2, 60, "the delivery to be sent again")
            # The receiver has the request before the worker has its answer: stop the worker only once it recorded it.
            receiver.wait_for(lambda: [d.status for d in store.deliveries("app-k", hook.id, 10) or []] == ["delivered"],
                              30, "the worker to record the delivery")
        finally:
            fresh.stop()
        first, again = receiver.at(hanging)[:2]
        assert first.headers["Turnstile-Delivery"] == again.headers["Turnstile-Delivery"] == cut.id
        assert first.body == again.body and verify(hook.secret, again)
        [done] = store.deliveries("app-k", hook.id, 10) or []
        assert (done.status, done.attempts) == ("delivered", 1)
    finally:
        store.close()
