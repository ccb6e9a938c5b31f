"""Search bots play in the background: one thread per process plays the turns of the search bots (domain/search.py)
in the matches this process appends to, so no request waits for a search.

The service tells the runner of every match it appended to (a watcher: it only queues the id); the runner's thread
loads the match and plays its bots until a person is to move (`MatchService.play_bots(searching=True)`, each move
conditional on the version it was chosen at). Meanwhile the match shows the bot's seat to move. A turn this process
never plays (it crashed, or stopped first) is not lost: the write that put the bot to move left the match due now
(`due_in`), and the deadline sweep of any process plays it (service/matches/deadlines.py).

With Redis configured the runner is given `jobs` (service/matches/bot_jobs.py): it enqueues each turn as an RQ job
for the workers instead of playing it, and plays it itself only when Redis does not answer (the enqueue's short
timeout, or its open breaker), so an outage of Redis delays no bot.
"""

from __future__ import annotations

import logging
import queue
import threading

from domain import bots
from service.matches.bot_jobs import BotJobs
from service.matches.matches import LoadedMatch, MatchService

log = logging.getLogger("turnstile.bots")


class BotRunner:
    """A thread that plays the search bots' turns of the matches it is told of."""

    def __init__(self, service: MatchService, jobs: BotJobs | None = None) -> None:
        self.service = service
        self.jobs = jobs
        self.enqueued = 0  # turns handed to the workers (the rest were played here)
        self.pending: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.queued: set[str] = set()
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="turnstile-bots", daemon=True)
        self.thread.start()

    def moved(self, match_id: str) -> None:
        """A watcher: queue the match when its cached state has a search bot to move (nothing else is done here)."""
        loaded = self.service.cache.get(match_id)
        if loaded is None:
            return
        waiting = bots.bot_to_move(loaded.game, loaded.state)
        if waiting is None or not bots.is_search(waiting[1]):
            return
        with self._lock:
            if match_id in self.queued:
                return
            self.queued.add(match_id)
        self.pending.put(match_id)

    def _run(self) -> None:
        while True:
            match_id = self.pending.get()
            if match_id is None:
                return
            with self._lock:
                self.queued.discard(match_id)
            try:
                loaded = self.service.load(match_id)
                if self.jobs is not None and self._enqueued(loaded.record.id, loaded):
                    continue
                self.service.play_bots(loaded, searching=True)
            except Exception:  # logged; the deadline sweep plays the turn later
                log.exception("match %s: a search bot's turn failed here (the sweep will play it)", match_id)

    def _enqueued(self, match_id: str, loaded: LoadedMatch) -> bool:
        """Hand a search bot's turn to the workers; False: Redis did not answer (or no search bot is to move)."""
        assert self.jobs is not None
        waiting = bots.bot_to_move(loaded.game, loaded.state)
        if waiting is None or not bots.is_search(waiting[1]):
            return False
        if not self.jobs.enqueue(match_id, loaded.state.version):
            log.info("match %s: Redis did not take the bot's turn; played here", match_id)
            return False
        self.enqueued += 1
        return True

    def close(self) -> None:
        """Stop after the turn under way."""
        self.pending.put(None)
        self.thread.join(timeout=30)
