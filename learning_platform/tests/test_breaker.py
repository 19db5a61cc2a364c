"""The circuit breaker shared by the cache, the outbox and the leaderboards: its states, moved
through by the clock (time-machine), never by waiting."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from learning_platform.breaker import Breaker, State, breaker_for, reset_all

PAUSE = 5.0


@pytest.fixture
def clock():
    with time_machine.travel(datetime(2026, 3, 1, 12, tzinfo=UTC), tick=False) as traveller:
        yield traveller


def opened(clock) -> Breaker:
    breaker = Breaker("redis", reset_after=PAUSE)
    breaker.failed()
    return breaker


def test_a_new_breaker_is_closed(clock):
    breaker = Breaker("redis", reset_after=PAUSE)

    assert breaker.state is State.CLOSED
    assert not breaker.is_open()


def test_a_failure_opens_it(clock):
    breaker = opened(clock)

    assert breaker.state is State.OPEN
    assert breaker.is_open()


def test_it_stays_open_until_the_pause_is_over(clock):
    breaker = opened(clock)

    clock.shift(timedelta(seconds=PAUSE - 0.01))

    assert breaker.state is State.OPEN


def test_once_the_pause_is_over_it_is_half_open_and_lets_calls_through(clock):
    breaker = opened(clock)

    clock.shift(timedelta(seconds=PAUSE))

    assert breaker.state is State.HALF_OPEN
    assert not breaker.is_open()


def test_a_success_when_half_open_closes_it(clock):
    breaker = opened(clock)
    clock.shift(timedelta(seconds=PAUSE))

    breaker.succeeded()

    assert breaker.state is State.CLOSED


def test_a_failure_when_half_open_opens_it_for_another_whole_pause(clock):
    breaker = opened(clock)
    clock.shift(timedelta(seconds=PAUSE))

    breaker.failed()
    clock.shift(timedelta(seconds=PAUSE - 0.01))

    assert breaker.state is State.OPEN


def test_only_the_failure_that_opens_it_says_so(clock):
    # Callers log an outage on that answer: once per pause, not once per request.
    breaker = Breaker("redis", reset_after=PAUSE)

    assert breaker.failed() is True
    assert breaker.failed() is False
    clock.shift(timedelta(seconds=PAUSE))
    assert breaker.failed() is True


def test_reset_closes_an_open_breaker(clock):
    breaker = opened(clock)

    breaker.reset()

    assert breaker.state is State.CLOSED


def test_a_clock_set_back_before_the_failure_ends_the_pause(clock):
    breaker = opened(clock)

    clock.shift(timedelta(hours=-1))

    assert breaker.state is State.HALF_OPEN


def test_a_pause_read_from_a_function_follows_it(clock):
    pause = {"seconds": 60.0}
    breaker = Breaker("broker", reset_after=lambda: pause["seconds"])
    breaker.failed()
    clock.shift(timedelta(seconds=10))

    pause["seconds"] = 5.0

    assert breaker.state is State.HALF_OPEN


def test_one_name_is_one_breaker_in_a_process():
    name = f"test {uuid.uuid4().hex}"

    assert breaker_for(name, reset_after=PAUSE) is breaker_for(name, reset_after=1)


def test_reset_all_closes_only_the_breakers_under_the_prefix(clock):
    prefix = f"test {uuid.uuid4().hex}"
    mine = breaker_for(f"{prefix} a", reset_after=PAUSE)
    other = breaker_for(f"other {prefix}", reset_after=PAUSE)
    mine.failed()
    other.failed()

    reset_all(prefix=prefix)

    assert mine.state is State.CLOSED
    assert other.state is State.OPEN
