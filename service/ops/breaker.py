"""A circuit breaker: after repeated failures stop calling a dependency for a while, then try it once."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Literal

log = logging.getLogger("turnstile.workers")

State = Literal["closed", "open", "probing"]


class CircuitBreaker:
    """Closed: calls go. `failures` failures in a row open it for `cool_down_s`; then one probe call decides.

    Not thread-safe: one thread asks `allow()`, makes the call and reports `succeeded()` or `failed()`.
    Only changes of state are logged (opened, closed), so an outage gives two lines, not one per call.
    """

    def __init__(self, name: str, failures: int = 3, cool_down_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if failures < 1 or cool_down_s < 0:
            raise ValueError("a breaker needs failures >= 1 and cool_down_s >= 0")
        self.name = name
        self.failures = failures
        self.cool_down_s = cool_down_s
        self.clock = clock
        self.state: State = "closed"
        self.failed_in_a_row = 0
        self.opened_at = 0.0

    def allow(self) -> bool:
        """May a call go now? Once the cool-down is over, the first caller goes as the probe."""
        if self.state == "closed":
            return True
        if self.state == "open" and self.wait_s() == 0:
            self.state = "probing"
            return True
        return False

    def wait_s(self) -> float:
        """Seconds until `allow()` may say yes: 0 when closed or the cool-down is over."""
        if self.state == "closed":
            return 0.0
        if self.state == "probing":  # the probe's outcome, not time, decides what comes next
            return self.cool_down_s
        return max(0.0, self.opened_at + self.cool_down_s - self.clock())

    def succeeded(self) -> None:
        """A call worked: close the breaker."""
        if self.state != "closed":
            log.info("%s: circuit closed, the dependency answers again", self.name)
        self.state = "closed"
        self.failed_in_a_row = 0

    def failed(self, reason: str = "") -> None:
        """A call failed: count it; open (again) when it was the probe or the last one allowed in a row."""
        self.failed_in_a_row += 1
        if self.state == "probing":
            log.debug("%s: probe failed (%s); next probe in %.1f s", self.name, reason, self.cool_down_s)
        elif self.state == "closed" and self.failed_in_a_row >= self.failures:
            log.warning("%s: circuit open after %d failures in a row (%s); one probe every %.1f s",
                        self.name, self.failed_in_a_row, reason, self.cool_down_s)
        else:
            return
        self.state = "open"
        self.opened_at = self.clock()
