import pytest

from learning_platform.hooks import Hook


def test_announce_runs_every_subscriber_in_order_and_returns_their_results():
    hook: Hook[int, int] = Hook("test.numbers")
    hook.subscribe(lambda n: n + 1)
    hook.subscribe(lambda n: n * 10)

    assert hook.announce(4) == [5, 40]


def test_subscribing_the_same_function_twice_runs_it_once():
    hook: Hook[int, int] = Hook("test.once")

    def double(n: int) -> int:
        return n * 2

    hook.subscribe(double)
    hook.subscribe(double)

    assert hook.announce(3) == [6]


def test_a_subscriber_exception_reaches_the_announcer():
    hook: Hook[int, None] = Hook("test.failing")

    def fail(n: int) -> None:
        raise RuntimeError("subscriber failed")

    hook.subscribe(fail)

    with pytest.raises(RuntimeError, match="subscriber failed"):
        hook.announce(1)


def test_an_announcement_without_subscribers_returns_nothing():
    assert Hook("test.empty").announce(object()) == []
