"""A forked process that answers one function for the processes of a scoring job.

Some first uses are expensive and hold the interpreter while they run (lingua loading its
n-gram models: ≈ 0.75 s of CPU, with the GIL held). When a job is scored on both cores, the
parent and the forked helper would each pay for such a load. A :class:`ForkedService` is
started *before* the helper is forked: a child process that calls ``handler(request)`` for every
request, so the load happens once, in a process of its own, while the parent and the helper
go on with other batches; each of them connects on its first request.

Requests and answers are JSON over a Unix socket in a private folder (mode 0700), each
message preceded by its length. The service ends when :meth:`ForkedService.close` is called or
when every process that could ask it has exited (it watches a pipe whose writing end only
they hold). Whatever goes wrong on the way (no ``fork``, no Unix sockets, the service gone),
:meth:`ForkedService.ask` raises :class:`ServiceUnavailable` and the caller computes the
answer itself: the answer is the same, only its cost differs.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import selectors
import shutil
import signal
import socket
import struct
import sys
import tempfile
import threading
from collections.abc import Callable
from typing import Any

_HEADER = struct.Struct("!I")
MAX_MESSAGE = 1 << 24  # bytes: a request or an answer longer than this is refused
_LIVE: list[ForkedService] = []


class ServiceUnavailable(RuntimeError):
    """The service cannot answer (never started, gone, or failed on this request)."""


def available() -> bool:
    return hasattr(os, "fork") and hasattr(socket, "AF_UNIX")


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    chunks: list[bytes] = []
    while n:
        chunk = sock.recv(min(n, 1 << 16))
        if not chunk:
            raise EOFError("connection closed")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _send(sock: socket.socket, value: Any) -> None:
    body = json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    if len(body) > MAX_MESSAGE:
        raise ValueError(f"message of {len(body)} bytes is too long")
    sock.sendall(_HEADER.pack(len(body)) + body)


def _recv(sock: socket.socket) -> Any:
    (n,) = _HEADER.unpack(_recv_exact(sock, _HEADER.size))
    if n > MAX_MESSAGE:
        raise ValueError(f"message of {n} bytes is too long")
    return json.loads(_recv_exact(sock, n).decode("utf-8"))


def _serve(listener: socket.socket, watch: int, handler: Callable[[Any], Any]) -> None:
    """The service's loop: answer each connection's requests until the watched pipe ends."""
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "accept")
    sel.register(watch, selectors.EVENT_READ, "watch")
    while True:
        for key, _events in sel.select():
            if key.data == "watch":  # every process that could ask has exited, or close() was called
                return
            if key.data == "accept":
                accepted, _addr = listener.accept()
                accepted.setblocking(True)
                sel.register(accepted, selectors.EVENT_READ, "conn")
                continue
            conn = key.fileobj
            if not isinstance(conn, socket.socket):  # pragma: no cover - only sockets are registered as "conn"
                continue
            try:
                request = _recv(conn)
            except (EOFError, OSError, ValueError):
                sel.unregister(conn)
                conn.close()
                continue
            try:
                answer: Any = {"ok": handler(request)}
            except Exception as exc:  # noqa: BLE001 - reported to the asking process, which computes it itself
                answer = {"error": f"{type(exc).__name__}: {exc}"}
            try:
                _send(conn, answer)
            except (OSError, ValueError):
                sel.unregister(conn)
                conn.close()


class ForkedService:
    """``handler(request) -> answer`` (JSON values) answered by a child process forked now (see
    the module docstring). Raises :class:`ServiceUnavailable` when it cannot be started."""

    def __init__(self, handler: Callable[[Any], Any], *, name: str = "service") -> None:
        if not available():
            raise ServiceUnavailable("this system cannot fork")
        self._dir = tempfile.mkdtemp(prefix=f"mteval-{name}-")
        self.path = os.path.join(self._dir, "s")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(self.path)
            listener.listen(8)
        except OSError as exc:  # e.g. a temporary folder whose path is too long for a socket
            listener.close()
            shutil.rmtree(self._dir, ignore_errors=True)
            raise ServiceUnavailable(f"cannot listen on {self.path}: {exc}") from exc
        watch_r, watch_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the service
            code = 1
            try:
                os.close(watch_w)
                for other in _LIVE:  # do not keep earlier services alive
                    with contextlib.suppress(OSError):
                        os.close(other._watch)
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the processes it serves decide when to stop
                _serve(listener, watch_r, handler)
                code = 0
            finally:
                os._exit(code)
        os.close(watch_r)
        listener.close()
        self.pid: int | None = pid
        self._watch: int = watch_w
        self._owner = os.getpid()
        self._conns: dict[int, socket.socket] = {}  # one connection per asking process
        self._lock = threading.Lock()
        self._broken: set[int] = set()  # processes for which the service failed once
        _LIVE.append(self)

    def ask(self, request: Any) -> Any:
        """The handler's answer to ``request`` (:class:`ServiceUnavailable` when the service cannot give it)."""
        me = os.getpid()
        with self._lock:
            if self.pid is None or me in self._broken:
                raise ServiceUnavailable("the service has ended")
            try:
                conn = self._conns.get(me)
                if conn is None:
                    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    conn.connect(self.path)
                    self._conns[me] = conn
                _send(conn, request)
                answer = _recv(conn)
            except (EOFError, OSError, ValueError) as exc:
                self._broken.add(me)
                raise ServiceUnavailable(f"the service did not answer: {exc}") from exc
        if not isinstance(answer, dict) or ("ok" not in answer and "error" not in answer):
            raise ServiceUnavailable("the service gave a malformed answer")
        if "error" in answer:
            raise ServiceUnavailable(f"the service failed: {answer['error']}")
        return answer["ok"]

    def close(self) -> None:
        """End the service and reap it (in the process that started it; elsewhere only this
        process's connection is dropped)."""
        me = os.getpid()
        with self._lock:
            conn = self._conns.pop(me, None)
            if conn is not None:
                with contextlib.suppress(OSError):
                    conn.close()
            if me != self._owner or self.pid is None:
                return
            pid, self.pid = self.pid, None
        with contextlib.suppress(OSError):
            os.close(self._watch)
        with contextlib.suppress(ProcessLookupError):  # a process forked later may still hold the pipe
            os.kill(pid, signal.SIGTERM)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        shutil.rmtree(self._dir, ignore_errors=True)
        with contextlib.suppress(ValueError):
            _LIVE.remove(self)


@atexit.register
def _close_all() -> None:
    for svc in list(_LIVE):
        svc.close()
