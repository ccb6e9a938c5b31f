"""The circuit breaker on a hand-driven clock, and the notifier's settings from the environment."""

from __future__ import annotations

import logging

import pytest

from service.ops.breaker import CircuitBreaker


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def opened(clock: Clock, failures: int = 3, cool_down_s: float = 5.0) -> CircuitBreaker:
    """A breaker that has just opened."""
    breaker = CircuitBreaker("test", failures, cool_down_s, clock)
    for _ in range(failures):
        assert breaker.allow()
        breaker.failed("refused")
    assert breaker.state == "open"
    return breaker


def test_a_closed_breaker_lets_every_call_through_until_enough_failures_in_a_row() -> None:
    """Two failures, a success, two failures: still closed (the count is of failures in a row)."""
    breaker = CircuitBreaker("test", 3, 5.0, Clock())
    for worked in (False, False, True, False, False):
        assert breaker.allow()
        if worked:
            breaker.succeeded()
        else:
            breaker.failed()
    assert breaker.state == "closed"
    assert breaker.wait_s() == 0
    breaker.failed()
    assert breaker.state == "open"


def test_an_open_breaker_refuses_every_call_for_the_whole_cool_down() -> None:
    """Nothing goes from the moment it opens until the cool-down has passed."""
    clock = Clock()
    breaker = opened(clock)
    for elapsed in (0.0, 1.0, 4.0, 4.999):
        clock.now = 1000.0 + elapsed
        assert not breaker.allow(), f"a call went {elapsed} s into a 5 s cool-down"
        assert breaker.wait_s() == pytest.approx(5.0 - elapsed)


def test_after_the_cool_down_exactly_one_probe_goes() -> None:
    """The first caller after the cool-down is the probe; nobody else goes until it reports."""
    clock = Clock()
    breaker = opened(clock)
    clock.now += 5.0
    assert breaker.wait_s() == 0
    assert breaker.allow()
    assert breaker.state == "probing"
    clock.now += 60.0
    assert not breaker.allow(), "a second call went while the probe was out"


def test_a_probe_that_succeeds_closes_the_breaker() -> None:
    """Success closes it: every call goes again and the failure count starts from zero."""
    clock = Clock()
    breaker = opened(clock)
    clock.now += 5.0
    assert breaker.allow()
    breaker.succeeded()
    assert breaker.state == "closed"
    assert all(breaker.allow() for _ in range(5))
    breaker.failed()
    breaker.failed()
    assert breaker.state == "closed", "the failures before the probe no longer count"


def test_a_probe_that_fails_opens_it_for_a_fresh_cool_down() -> None:
    """One failed probe is enough to re-open, and the cool-down counts from the probe's failure."""
    clock = Clock()
    breaker = opened(clock)
    clock.now += 7.0
    assert breaker.allow()
    clock.now += 0.25  # the probe's timeout
    breaker.failed("timeout")
    assert breaker.state == "open"
    clock.now += 4.9
    assert not breaker.allow()
    clock.now += 0.1
    assert breaker.allow()


def test_a_zero_cool_down_probes_at_once() -> None:
    """With no cool-down the next call after opening is a probe."""
    breaker = opened(Clock(), failures=1, cool_down_s=0.0)
    assert breaker.allow()
    assert breaker.state == "probing"


def test_only_changes_of_state_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    """A long outage logs one line when the breaker opens and one when it closes, whatever happens between."""
    clock = Clock()
    caplog.set_level(logging.INFO, logger="turnstile.workers")
    breaker = opened(clock)
    for _ in range(10):  # refused calls and failed probes
        assert not breaker.allow()
        clock.now += 5.0
        assert breaker.allow()
        breaker.failed("refused")
    clock.now += 5.0
    assert breaker.allow()
    breaker.succeeded()
    breaker.succeeded()
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "turnstile.workers"]
    assert len(lines) == 2, lines
    assert lines[0][0] == "WARNING" and "circuit open after 3 failures in a row (refused)" in lines[0][1]
    assert lines[1][0] == "INFO" and "circuit closed" in lines[1][1]


def test_a_breaker_needs_sane_limits() -> None:
    """Zero failures or a negative cool-down is a mistake, said at once."""
    with pytest.raises(ValueError):
        CircuitBreaker("test", 0, 5.0)
    with pytest.raises(ValueError):
        CircuitBreaker("test", 3, -1.0)
