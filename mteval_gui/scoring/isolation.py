"""Where a metric runs, so that what goes wrong in it stays its own.

A metric from an installed plugin package (any plugin but the standards bundled with the
application) runs in a child process of its own, spawned by :func:`mteval_gui.runtime.start`.
There a time limit can be enforced (the child is killed), and nothing the metric does —
``SystemExit``, ``KeyboardInterrupt``, ``os._exit(0)``, a crash of a native library — can end
the scoring job: the metric is ``failed`` with its reason and the other metrics go on. The
bundled metrics (``mteval_gui.scoring.metrics``, the bundled ``eval_standards``) and classes
that a caller names directly in a :class:`~mteval_gui.scoring.job.ScoringRequest` (its own
code, already running in its process) stay in the calling process, where starting a process
would cost more than the metric; there ``SystemExit`` is contained too, but no time limit
applies and a ``KeyboardInterrupt`` is taken to be the user's.

The interface is small:

- :func:`isolated_by_default` — whether a metric reference names a plugin package's class;
- :func:`open_metric` — the metric of a reference, in this process (the metric object itself)
  or in a child (:class:`ProcessMetric`, which has the same methods as a metric);
- :class:`MetricFailed` — what every call of a :class:`ProcessMetric` raises when the metric
  raised, timed out or its process ended; :data:`CONTAINED` and :func:`failure_reason` are
  what a caller catches and records for an in-process metric as well;
- :func:`close_all` — end the children of a job (always, in a ``finally``).

A caller runs each metric the same way wherever it lives::

    metric = open_metric(ref, isolated=isolated_by_default(ref), time_limit=300)
    try:
        metric.prepare(context)           # MetricUnavailable passes through
        scores = metric.score_entries(batch)
        corpus = metric.aggregate(scores, context)
    except CONTAINED as exc:
        reason = failure_reason(exc)      # "timed out after 300 s", "SystemExit: 3", ...
    finally:
        close_all([metric])

A :class:`ProcessMetric` and its arguments pickle by value: entries, outputs and the context
(less what does not pickle: ``context.shared`` caches and callables in ``options`` stay in the
parent; the child's metric gets its own ``shared`` and its own reference-side store of the
same corpus version, :mod:`~mteval_gui.scoring.corpus_side`). The context given to ``prepare`` is kept
in the child and is the one its ``aggregate`` sees, like in one process. One child serves one
metric for one job: a worker process that scores runs in parallel opens its own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import pickle
import time
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.connection import Connection
from typing import Any, cast

from mteval_gui import runtime
from mteval_gui.domain.card import MetricRef
from mteval_gui.errors import Cancelled, MtevalError, PluginError
from mteval_gui.scoring.corpus_side import corpus_side
from mteval_gui.scoring.plugins import (
    CorpusScore,
    EntryInput,
    EntryScore,
    Metric,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
    instantiate,
    module_folder,
)

DEFAULT_TIME_LIMIT_S = 300.0  # per call of an isolated metric (prepare, one batch, aggregate)
STARTUP_LIMIT_S = 120.0  # starting the child and importing the metric's class
POLL_S = 0.2  # how often a waiting parent looks at the cancel token
CONTAINED: tuple[type[BaseException], ...] = (Exception, SystemExit)  # what a metric may raise without ending a job


class MetricFailed(MtevalError):
    """A metric call that did not return: the metric raised, timed out, or its process ended."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def failure_reason(exc: BaseException) -> str:
    """How a metric's failure is recorded: ``"timed out after 300 s"``, ``"ValueError: …"``."""
    if isinstance(exc, MetricFailed):
        return exc.reason
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def isolated_by_default(ref: MetricRef) -> bool:
    """True when ``ref`` names a class of an installed plugin package other than the bundled ones."""
    from mteval_gui import standards

    module = ref.python_name.partition(":")[0]
    owner = standards.installed_plugins().owner(module)
    return owner is not None and not owner.from_checkout and owner.distribution != standards.DISTRIBUTION


def open_metric(ref: MetricRef, *, isolated: bool, time_limit: float | None = DEFAULT_TIME_LIMIT_S,
                cancelled: Callable[[], bool] | None = None) -> Metric:
    """The metric of ``ref``: constructed here, or in a child process (``isolated``).

    Raises :class:`~mteval_gui.errors.PluginError` when it cannot be imported or constructed.
    ``time_limit`` (seconds, None: none) bounds each call of an isolated metric; ``cancelled``
    is looked at while waiting for one (a cancelled job kills the child and raises
    :class:`~mteval_gui.errors.Cancelled`).
    """
    if not isolated:
        return instantiate(ref)
    return cast(Metric, ProcessMetric(ref, time_limit=time_limit, cancelled=cancelled))


def close_all(metrics: Iterable[object]) -> None:
    """End the child process of every :class:`ProcessMetric` among ``metrics``."""
    for m in metrics:
        if isinstance(m, ProcessMetric):
            m.close()


def _seconds(limit: float) -> str:
    return f"{limit:g}"


def _picklable(value: Any) -> bool:
    try:
        pickle.dumps(value)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return False
    return True


def portable_context(context: ScoringContext) -> ScoringContext:
    """The context a child process gets: no ``shared`` caches, options that pickle, no
    reference-side store (it holds a lock; the child uses its own, see :func:`_side_key`)."""
    options = {k: v for k, v in context.options.items() if not callable(v) and _picklable(v)}
    return dataclasses.replace(context, options=options, shared={}, corpus_side=None)


def _side_key(context: ScoringContext) -> tuple[str, str] | None:
    """(corpus id, version key) of the context's reference-side store: the child opens its own store of it."""
    side = context.corpus_side
    return None if side is None else (side.corpus_id, side.version_key)


class ProcessMetric:
    """A metric living in a child process; its methods are those of the metric (see the module docstring)."""

    info: MetricInfo  # an instance attribute here, a class attribute on a metric
    folder: str | None = None  # the folder of the metric's module (plugins.module_folder)

    def __init__(self, ref: MetricRef, *, time_limit: float | None = DEFAULT_TIME_LIMIT_S,
                 cancelled: Callable[[], bool] | None = None) -> None:
        self.ref = ref
        self.time_limit = time_limit
        self.cancelled = cancelled
        self._dead: str | None = None
        self._conn, child_conn = runtime.pipe(duplex=True)
        # a metric may start processes of its own; close() and the child's EOF end it
        self._proc = runtime.start(child_main, child_conn, ref, method="spawn", name=f"mteval-metric-{ref.id}")
        child_conn.close()
        try:
            info, has_statistics, self.folder = self._call("start", (),
                                                           limit=max(STARTUP_LIMIT_S, time_limit or 0.0))
        except MetricFailed as exc:
            self.close()
            raise PluginError(ref.id, exc.reason) from exc
        self.info = info
        self.entry_statistics: Callable[[Sequence[EntryScore | None]], dict[str, Any]] | None = (
            self._entry_statistics if has_statistics else None)

    # ------------------------------------------------------------------ the metric's methods

    def prepare(self, context: ScoringContext) -> None:
        self._call("prepare", (portable_context(context), _side_key(context)))

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out: list[EntryScore] = self._call("score_entries", (list(items),))
        return out

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        out: CorpusScore = self._call("aggregate", (list(per_entry),))
        return out

    def _entry_statistics(self, per_entry: Sequence[EntryScore | None]) -> dict[str, Any]:
        out: dict[str, Any] = self._call("entry_statistics", (list(per_entry),))
        return out

    # ------------------------------------------------------------------ the process

    @property
    def pid(self) -> int | None:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return self._dead is None and self._proc.alive

    def close(self) -> None:
        """Ask the child to stop, then end it; idempotent."""
        if self._proc.alive:
            with contextlib.suppress(OSError, ValueError):
                self._conn.send(("close", ()))
            self._proc.join(2.0)
        if self._proc.alive:
            self._proc.kill()
            self._proc.join(5.0)
        self._conn.close()
        if self._dead is None:
            self._dead = "closed"

    def _kill(self, why: str) -> None:
        self._dead = why
        self._proc.kill()
        self._proc.join(5.0)

    def _call(self, op: str, args: tuple[Any, ...], *, limit: float | None = None) -> Any:
        if self._dead is not None:
            raise MetricFailed(f"not called: {self._dead}")
        limit = self.time_limit if limit is None else limit
        if op != "start":
            try:
                self._conn.send((op, args))
            except (OSError, ValueError) as exc:
                self._kill("its process is gone")
                raise MetricFailed(f"its process is gone ({type(exc).__name__}: {exc})") from exc
        deadline = None if limit is None else time.monotonic() + limit
        while True:
            wait = POLL_S if deadline is None else max(0.0, min(POLL_S, deadline - time.monotonic()))
            if self._conn.poll(wait):
                break
            if self.cancelled is not None and self.cancelled():
                self._kill("cancelled")
                raise Cancelled("scoring cancelled; committed batches are kept and a rerun resumes")
            if deadline is not None and time.monotonic() >= deadline:
                self._kill(f"timed out after {_seconds(limit or 0.0)} s")
                raise MetricFailed(f"timed out after {_seconds(limit or 0.0)} s")
        try:
            status, payload = self._conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError, AttributeError, ImportError) as exc:
            self._proc.join(5.0)
            code = self._proc.exitcode
            why = (f"its process ended (exit code {code})" if code is not None and code >= 0
                   else f"its process was killed (signal {-code})" if code is not None
                   else f"its answer could not be read ({type(exc).__name__})")
            self._kill(why)
            raise MetricFailed(why) from exc
        if status == "ok":
            return payload
        if status == "unavailable":
            reason, availability = payload
            raise MetricUnavailable(reason, availability)
        if status == "fatal":  # the child ended itself after reporting (BaseException)
            self._kill(str(payload))
        raise MetricFailed(str(payload))


# --------------------------------------------------------------------------- the child


def _reply(conn: Connection, status: str, payload: Any) -> None:
    try:
        conn.send((status, payload))
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError) as exc:
        conn.send(("error", f"its result cannot be sent back: {type(exc).__name__}: {exc}"))


def child_main(conn: Connection, ref: MetricRef) -> None:
    """The child's loop (Ctrl-C is the parent's to handle): construct the metric, then answer
    ``(op, args)`` until ``close`` or EOF."""
    try:
        metric = instantiate(ref)
        info = metric.info
    except PluginError as exc:
        _reply(conn, "error", str(exc).removeprefix(f"metric {ref.id}: "))
        return
    _reply(conn, "ok", (info, callable(getattr(metric, "entry_statistics", None)), module_folder(metric)))
    context: ScoringContext | None = None
    while True:
        try:
            op, args = conn.recv()
        except (EOFError, OSError):
            return
        if op == "close":
            return
        try:
            if op == "prepare":
                context, side = args
                if side is not None:
                    context = dataclasses.replace(context, corpus_side=corpus_side(*side))
                metric.prepare(context)
                result: Any = None
            elif op == "score_entries":
                result = metric.score_entries(args[0])
            elif op == "aggregate":
                if context is None:
                    raise RuntimeError("aggregate before prepare")
                result = metric.aggregate(args[0], context)
            elif op == "entry_statistics":
                result = metric.entry_statistics(*args)  # type: ignore[attr-defined]
            else:
                raise RuntimeError(f"unknown request {op!r}")
        except MetricUnavailable as exc:
            _reply(conn, "unavailable", (exc.reason, exc.availability))
            continue
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which fails the metric
            _reply(conn, "error", failure_reason(exc))
            continue
        except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: reported, then this child ends
            _reply(conn, "fatal", failure_reason(exc))
            return
        _reply(conn, "ok", result)
