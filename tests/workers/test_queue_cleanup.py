"""Tests on the shared Redis (db 15) leave nothing of RQ behind: `rq_queue` deletes its queue's keys afterwards."""

from __future__ import annotations

import redis
from rq import Queue, Worker
from rq.serializers import JSONSerializer

from tests.conftest import forget_queue


def test_forgetting_a_queue_leaves_no_key_of_it_nor_of_its_jobs_and_workers(redis_url: str, rq_queue: str) -> None:
    """Found: `rq:queues` and `rq:workers` kept the tests' queues and workers in db 15 after every run."""
    with redis.Redis.from_url(redis_url) as client:
        queue = Queue(rq_queue, connection=client, serializer=JSONSerializer)
        job = queue.enqueue("os.getpid")
        worker = Worker([queue], connection=client, serializer=JSONSerializer, name=f"{rq_queue}-worker")
        worker.register_birth()
        assert client.sismember("rq:queues", f"rq:queue:{rq_queue}") and client.exists(f"rq:job:{job.id}")
        forget_queue(redis_url, rq_queue)
        left = [key for key in client.scan_iter("rq:*") if rq_queue.encode() in key or job.id.encode() in key]
        assert left == []
        assert not client.sismember("rq:queues", f"rq:queue:{rq_queue}")
        assert not any(rq_queue.encode() in member for member in client.smembers("rq:workers"))
