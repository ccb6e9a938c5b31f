"""An idle courier asks the store for due deliveries once per poll, whatever its number of senders, and a wake-up
still sends every sender to look at once."""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

from service.outbox.courier import Courier
from settings import Settings

POLL_S = 0.1


class CountingStore:
    """A webhook store with nothing due that counts the looks (claims) and who made them."""

    def __init__(self) -> None:
        self.claims: list[tuple[float, str]] = []
        self.lock = threading.Lock()

    def claim_delivery(self, holder: str, lease_s: float) -> Any:
        with self.lock:
            self.claims.append((time.monotonic(), holder))
        return None


def settings(senders: int) -> Settings:
    return dataclasses.replace(Settings(), webhook_poll_s=POLL_S, webhook_senders=senders)


def test_an_idle_courier_looks_once_a_poll_not_once_a_sender_and_every_sender_takes_turns() -> None:
    store = CountingStore()
    courier = Courier(store, settings(4))  # type: ignore[arg-type]
    try:
        time.sleep(4 * POLL_S)  # every sender has started
        began = len(store.claims)
        time.sleep(20 * POLL_S)
        looks = store.claims[began:]
    finally:
        courier.close()
    # Four senders each looking every poll would make 80 looks here; taking turns makes about 20.
    assert 14 <= len(looks) <= 26, len(looks)
    assert len({holder for _, holder in looks}) == 4  # no sender is left out (one held by a hung receiver is covered)


def test_a_wake_up_sends_every_sender_to_look_at_once() -> None:
    store = CountingStore()
    courier = Courier(store, dataclasses.replace(settings(4), webhook_poll_s=5.0))
    try:
        time.sleep(0.2)
        before = len(store.claims)
        courier.wake()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and len({h for _, h in store.claims[before:]}) < 4:
            time.sleep(0.01)
        woken = {holder for _, holder in store.claims[before:]}
    finally:
        courier.close()
    assert before == 1  # sender 0 looked at its start; the others wait their turn (5 s and more)
    assert len(woken) == 4  # woken, every one looked at once
