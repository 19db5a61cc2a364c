"""The soak's TCP proxy (bench/soak_stack.py) in front of the tests' Redis, on a free port:
Redis lost (`cut`: connections reset, new ones refused), Redis that stops answering
(`freeze`: connections accepted, nothing forwarded), and back (`restore`, `thaw`)."""

from __future__ import annotations

from urllib.parse import urlsplit

from bench.soak_stack import Proxy


class RedisProxy(Proxy):
    def __init__(self, redis_url: str) -> None:
        parts = urlsplit(redis_url)
        super().__init__(0, (parts.hostname or "127.0.0.1", parts.port or 6379))
        self.database = parts.path or "/0"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}{self.database}"
