"""A TCP proxy in front of the tests' Redis that the test controls: Redis lost (connections
reset, new ones refused), Redis that stops answering (connections accepted, nothing
forwarded), and back."""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit


class RedisProxy:
    def __init__(self, redis_url: str) -> None:
        parts = urlsplit(redis_url)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 6379)
        self.database = parts.path or "/0"
        self._flowing = threading.Event()
        self._flowing.set()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._serve()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}{self.database}"

    def _serve(self) -> None:
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            self._flowing.wait()  # frozen: the connection is accepted, and nothing answers
            try:
                upstream = socket.create_connection(self.target, timeout=2)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets |= {client, upstream}
            for source, target in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, target), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self._flowing.wait()
                target.sendall(data)
        except OSError:
            pass
        finally:
            self._close(source)
            self._close(target)

    def _close(self, s: socket.socket) -> None:
        with self._lock:
            self._sockets.discard(s)
        with contextlib.suppress(OSError):
            s.shutdown(socket.SHUT_RDWR)
        s.close()

    def cut(self) -> None:
        """Redis lost: every connection reset, new ones refused."""
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        with self._lock:
            sockets = list(self._sockets)
        for s in sockets:
            self._close(s)

    def restore(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._serve()

    def freeze(self) -> None:
        """Redis stops answering: connections stay open (new ones are accepted), and nothing
        goes through until `thaw`."""
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    def close(self) -> None:
        self.thaw()
        self.cut()
