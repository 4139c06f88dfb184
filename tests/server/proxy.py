"""A TCP proxy the tests cut and restore: a database or Redis going away and coming back.

``TcpProxy(host, port)`` listens on a free loopback port (``proxy.port``) and relays
each connection to ``host:port`` from its own thread and event loop.  ``cut()`` drops
every open connection at once and refuses new ones (accepted, then closed), as a
server that died or a network that split would; ``restore()`` relays again.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from types import TracebackType

__all__ = ["TcpProxy"]


class TcpProxy:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.down = False
        self.refused = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    # -- control, from the test's thread ----------------------------------------------------
    def start(self) -> TcpProxy:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)
        return self

    def cut(self) -> None:
        """Drop every relayed connection and refuse new ones."""
        asyncio.run_coroutine_threadsafe(self._cut(), self._loop).result(10)

    def restore(self) -> None:
        self.down = False

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # -- the relay, in the proxy's loop ------------------------------------------------------
    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def _cut(self) -> None:
        self.down = True
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _close(self) -> None:
        await self._cut()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            self.refused += 1
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers.update((writer, up_writer))
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )
        for w in (writer, up_writer):
            self._writers.discard(w)
            w.transport.abort()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while not self.down:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
        writer.transport.abort()
