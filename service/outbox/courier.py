"""Sending webhook deliveries: a few sender threads, each attempt one POST, retried with backoff for up to a day.

A sender takes the most overdue delivery whose subscription nobody holds (store.claim_delivery), holds that
subscription for the attempt, and records how it went. So one subscription has one attempt in flight at a time, and a
slow or hung receiver holds one sender for at most its timeout while the others serve everyone else. A sender that
dies mid-attempt leaves the delivery pending: when its hold runs out another sends it again, with the same id.
"""

from __future__ import annotations

import logging
import os
import random
import socket
import threading
import time
import uuid
from datetime import UTC, datetime

import msgspec

from service.outbox.webhook_http import Answer, post, sign
from service.outbox.webhooks import without_seat_tokens
from settings import Settings
from store.webhooks import Attempt, Claimed, WebhookStore

log = logging.getLogger("turnstile.webhooks")
MAX_BACKOFF_S = 3600.0  # retries are never further apart than an hour, so a receiver back up is served soon
_jitter = random.Random()


def backoff_s(failures: int, first_s: float) -> float:
    """The wait before the next attempt after `failures` failed ones: doubling, half of it random (jitter), so
    receivers coming back are not hit by every retry at once."""
    full = min(first_s * 2 ** (failures - 1), MAX_BACKOFF_S)
    return full / 2 + _jitter.random() * full / 2


def next_step(claimed: Claimed, answer: Answer, settings: Settings, now: datetime) -> Attempt:
    """What follows an attempt: delivered; retried later; or, out of time or attempts, given up (and the
    subscription disabled, saying why)."""
    if answer.error is None:
        return Attempt(ok=True, status_code=answer.status, latency_ms=answer.latency_ms,
                       body=without_seat_tokens(claimed.delivery.body))
    failures = claimed.delivery.attempts + 1
    wait = backoff_s(failures, settings.webhook_retry_s)
    due = datetime.fromisoformat(claimed.due_since)
    out_of_time = (now - due).total_seconds() + wait > settings.webhook_give_up_s
    out_of_attempts = 0 < settings.webhook_max_attempts <= failures
    failed = Attempt(ok=False, status_code=answer.status, latency_ms=answer.latency_ms, error=answer.error[:500])
    if not (out_of_time or out_of_attempts):
        return msgspec.structs.replace(failed, retry_in_s=wait)
    why = (f"delivery {claimed.delivery.id} failed {failures} times since {claimed.due_since}; last: {answer.error}"
           f" (redeliver it to enable the webhook again)")
    # Given up: nothing will send it unless redelivered, so its seat tokens go now (a redelivery goes without them;
    # the app's feed tells them again).
    return msgspec.structs.replace(failed, disable=why[:1000], body=without_seat_tokens(claimed.delivery.body))


def headers_for(claimed: Claimed, timestamp: int) -> dict[str, str]:
    """The headers of a delivery: its id and kind, the subscription, and the signature of this attempt."""
    return {"Turnstile-Delivery": claimed.delivery.id, "Turnstile-Event": claimed.delivery.kind,
            "Turnstile-Webhook": claimed.delivery.webhook_id,
            "Turnstile-Signature": sign(claimed.secret, timestamp, claimed.delivery.body.encode())}


class Courier:
    """`settings.webhook_senders` threads sending due deliveries; woken when deliveries are made, else polling."""

    def __init__(self, store: WebhookStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._threads = [threading.Thread(target=self._run, args=(f"{self.name}/{n}", n), daemon=True,
                                          name=f"turnstile-webhook-sender-{n}")
                         for n in range(settings.webhook_senders)]
        for thread in self._threads:
            thread.start()

    def wake(self) -> None:
        """New deliveries may be due: look now."""
        self._wake.set()

    def _run(self, holder: str, number: int) -> None:
        # Unwoken, the senders take turns to look: each rests `webhook_poll_s` times the number of senders between
        # looks, and they start a poll apart, so an idle process asks the store about every `webhook_poll_s` (not
        # that many times over), and a sender held by a hung receiver leaves the others looking. A wake-up (this
        # process made deliveries) sends every waiting sender to look at once; after one, they may look together and
        # then rest together, at worst `webhook_poll_s` times the senders apart. Deliveries another process made are
        # that process's to send at once: these looks are for retries falling due and for a process that died.
        rest_s = self.settings.webhook_poll_s * len(self._threads)
        if number and self._wake.wait(self.settings.webhook_poll_s * number):
            self._wake.clear()
        while not self._stopping.is_set():
            try:
                claimed = self.store.claim_delivery(holder, self.settings.webhook_lease_s)
            except Exception:  # the store is away: try again at the next poll
                log.exception("claiming a webhook delivery failed")
                claimed = None
            if claimed is None:
                if self._wake.wait(rest_s):
                    self._wake.clear()
                continue
            self.attempt(claimed, holder)

    def attempt(self, claimed: Claimed, holder: str) -> None:
        """POST one delivery once and record how it went."""
        answer = post(claimed.url, claimed.delivery.body.encode(), headers_for(claimed, int(time.time())),
                      timeout_s=self.settings.webhook_timeout_s, allow_private=self.settings.webhook_allow_private)
        step = next_step(claimed, answer, self.settings, datetime.now(UTC))
        if step.disable:
            log.warning("webhook %s disabled: %s", claimed.delivery.webhook_id, step.disable)
        try:
            self.store.finish_attempt(claimed, holder, step)
        except Exception:  # unrecorded: the hold runs out and the delivery is sent again (same id)
            log.exception("recording a webhook attempt failed")

    def close(self) -> None:
        """Stop the senders (an attempt in flight ends within its timeout)."""
        self._stopping.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout=self.settings.webhook_timeout_s + 2)
