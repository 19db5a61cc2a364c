"""Domain-event hooks: how an app lets the apps above it react without importing them.

An app declares a hook for something that happens in it (progress: lessons completed) and
announces each occurrence; apps above it subscribe in their `AppConfig.ready()`. Announcing
runs every subscriber at once, in the announcer's transaction, and returns what each one
returned: a subscriber's writes commit or roll back with the event itself, and an exception in
a subscriber propagates to the announcer (the caller decides whether an event is optional).

Django's signals do the same with untyped keyword arguments and weak references; a hook names
its event type, holds strong references (subscribers are module-level functions registered once)
and returns typed results.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

Event = TypeVar("Event")
Result = TypeVar("Result")


class Hook(Generic[Event, Result]):
    def __init__(self, name: str) -> None:
        self.name = name
        self._subscribers: list[Callable[[Event], Result]] = []

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {len(self._subscribers)} subscriber(s)>"

    def subscribe(self, subscriber: Callable[[Event], Result]) -> Callable[[Event], Result]:
        """Add a subscriber (once, however often `ready()` runs); usable as a decorator."""
        if subscriber not in self._subscribers:
            self._subscribers.append(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Callable[[Event], Result]) -> None:
        if subscriber in self._subscribers:
            self._subscribers.remove(subscriber)

    def announce(self, event: Event) -> list[Result]:
        """Run every subscriber on the event, in subscription order; their results."""
        return [subscriber(event) for subscriber in self._subscribers]
