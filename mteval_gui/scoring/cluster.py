"""Batches scored on a Ray cluster: one more executor behind the helper seam of
:mod:`mteval_gui.scoring.parallel`.

:class:`RayHelper` is a :class:`~mteval_gui.scoring.parallel.Helper`: it takes every batch of a
job from the back of its :class:`~mteval_gui.scoring.parallel.Claims` and has Ray actors
(:class:`BatchWorker`) score them, streaming each batch's rows back as it returns. This process
stays the only writer of the workspace: :class:`~mteval_gui.scoring.batches.BatchRun` commits
each batch as it arrives, exactly as it commits a forked helper's, so progress, cancelling
(the actors are killed) and resuming (committed batches are skipped) are those of local
scoring, and the rows are the same.

- **Workers.** An actor opens and prepares the job's metrics once per job (the same code as this
  process, :func:`~mteval_gui.scoring.batches.resolve_metrics` and
  :func:`~mteval_gui.scoring.batches.prepare`, every metric in the actor's own process) and
  then scores the batches it is sent by index. Each actor reserves one CPU; the actors of the
  metrics that declare a GPU (:attr:`~mteval_gui.scoring.plugins.MetricInfo.gpu`: COMET,
  embeddings) reserve one GPU each (``num_gpus=1``) when the cluster has GPUs, and score only
  those metrics; the others' actors score the rest. Without a GPU in the cluster every metric
  goes to the CPU actors. Each actor keeps :data:`IN_FLIGHT` batches queued, so a faster one
  takes more. Once a job's batches are all back its actors stay, idle, for the next job of this
  process (the next run: no process started and no module imported again); a cancelled or
  failed job's are killed.
- **A lost worker.** An actor whose process died (or whose node left) is replaced by a new
  one, and the batches queued on it are sent again, each up to :data:`MAX_TRIES` times; a
  batch that fails on every try is reported lost and scored by this process.
- **Nothing travels by a path of this machine.** The request (corpus, run, language cards,
  glossary) goes to the object store once; every file the options name — the analyzers this
  process resolved, gloss files, a local COMET checkpoint — goes there by content, keyed by
  its sha256 (:func:`ship`), and a worker writes it once into its own content-addressed cache
  (:func:`materialize`, ``MTEVAL_CLUSTER_CACHE`` or the user cache folder) and points the
  options there. An analyzer that this process did not find is not looked for on the worker
  either.

:func:`connect` joins the cluster named by ``--cluster``: ``local`` starts one on this machine
(``ray.init``), anything else is a Ray address (``auto``, ``HOST:6379``, ``ray://HOST:10001``).
Ray is an optional extra: without it the job fails with the command that installs it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui import __version__
from mteval_gui.errors import MtevalError
from mteval_gui.scoring import parallel
from mteval_gui.scoring.job import ScoringJob, ScoringRequest

LOCAL = "local"
CACHE_ENV = "MTEVAL_CLUSTER_CACHE"
MAX_TRIES = 3  # times a batch is sent again after its worker was lost (then it is scored here)
IN_FLIGHT = 2  # batches queued on each worker: one scored, the next waiting (no idle gap between them)
COMET_OPTION = "comet_model"

__all__ = ["CACHE_ENV", "LOCAL", "check", "BatchWorker", "ClusterUnavailable", "Group", "RayHelper",
           "ShippedPath", "connect", "import_ray", "materialize", "plan_groups", "ship"]


class ClusterUnavailable(MtevalError):
    """Scoring on a cluster cannot start: Ray is missing, the cluster cannot be reached, or its
    workers cannot open the job's metrics."""


def import_ray() -> Any:
    """The ``ray`` module, or :class:`ClusterUnavailable` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        from mteval_gui.paths import extra_install_hint

        raise ClusterUnavailable("scoring on a cluster needs Ray, which is not installed: "
                                 f"{extra_install_hint('cluster')}") from exc
    return ray


CONNECT_TIMEOUT_S = 10.0  # a head that does not answer within this is reported (Ray itself retries for minutes)


def _reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """:class:`ClusterUnavailable` unless a ``HOST:PORT`` (or ``ray://HOST:PORT``) address accepts
    a connection within ``timeout`` seconds; other addresses (``auto``) are left to Ray."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise ClusterUnavailable(f"cannot reach the Ray head at {address}: {exc.strerror or exc} "
                                 "(is `ray start --head` running there, and the port open?)") from exc


def check(address: str) -> None:
    """Before a job: Ray is installed and a ``HOST:PORT`` head answers (:class:`ClusterUnavailable`)."""
    import_ray()
    if address != LOCAL:
        _reachable(address)


def connect(address: str) -> Any:
    """Join the Ray cluster at ``address`` (``local``: start one on this machine) unless this
    process is connected already; returns the ``ray`` module."""
    ray = import_ray()
    if ray.is_initialized():
        return ray
    if address != LOCAL:
        _reachable(address)
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": "ERROR"}
    try:
        if address == LOCAL:
            ray.init(include_dashboard=False, **quiet)
        else:
            ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        raise ClusterUnavailable(f"cannot join the Ray cluster at {address}: {exc}") from exc
    return ray


# --------------------------------------------------------------------------- files by content


@dataclass(frozen=True)
class ShippedFile:
    """One file in the object store: its path relative to what was shipped, sha256 and content."""

    rel: str
    sha256: str
    ref: Any


@dataclass(frozen=True)
class ShippedPath:
    """A file or folder of this machine in the object store, by content: its base name and files."""

    name: str
    folder: bool
    files: tuple[ShippedFile, ...]

    @property
    def sha256(self) -> str:
        """sha256 over the names and contents of its files (the folder of its cache copy)."""
        h = hashlib.sha256(f"{self.name}\0{self.folder}\n".encode())
        for f in self.files:
            h.update(f"{f.rel}\0{f.sha256}\n".encode())
        return h.hexdigest()


_PUT: dict[str, Any] = {}  # sha256 -> object reference, while this process is connected


def _put_file(ray: Any, path: Path) -> tuple[str, Any]:
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    if sha not in _PUT:
        _PUT[sha] = ray.put(data)
    return sha, _PUT[sha]


def ship(ray: Any, path: Path) -> ShippedPath:
    """Put a file, or every file of a folder, into the object store by content (each content once)."""
    if path.is_dir():
        files = sorted(f for f in path.rglob("*") if f.is_file() and "__pycache__" not in f.parts)
        shipped = [ShippedFile(f.relative_to(path).as_posix(), *_put_file(ray, f)) for f in files]
        return ShippedPath(path.name, True, tuple(shipped))
    return ShippedPath(path.name, False, (ShippedFile(path.name, *_put_file(ray, path)),))


def cache_dir() -> Path:
    """Where a worker keeps the files it was sent, by content (``MTEVAL_CLUSTER_CACHE``, else the
    user cache folder's ``cluster``)."""
    from mteval_gui.paths import user_cache_dir

    override = os.environ.get(CACHE_ENV)
    return Path(override) if override else user_cache_dir() / "cluster"


def materialize(ray: Any, shipped: ShippedPath, root: Path | None = None) -> Path:
    """The local copy of a shipped file or folder (written once, checked against its sha256)."""
    base = (root or cache_dir()) / shipped.sha256
    for f in shipped.files:
        target = base / shipped.name / f.rel if shipped.folder else base / shipped.name
        if target.is_file():
            continue
        data = ray.get(f.ref)
        if hashlib.sha256(data).hexdigest() != f.sha256:
            raise ClusterUnavailable(f"{shipped.name}: the copy received differs from its sha256 {f.sha256}")
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".part-")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, target)
    return base / shipped.name


# --------------------------------------------------------------------------- what a worker is sent


@dataclass
class WorkerSpec:
    """What a worker needs to open the job's metrics: the request without this machine's paths,
    the files its options name (by content), the metrics it scores and whether it has a GPU."""

    request: Any  # the ScoringRequest, or its reference in the object store
    shipped: list[tuple[tuple[str, ...], ShippedPath]]  # where in the options -> the file's content
    metric_ids: list[str]
    gpu: bool
    version: str = __version__


def _portable(ray: Any, request: ScoringRequest) -> tuple[ScoringRequest, list[tuple[tuple[str, ...], ShippedPath]]]:
    """The request with every option that names a file of this machine replaced by its content."""
    from mteval_gui.fst.registry import DIR_OPTION, OPTION_KEYS
    from mteval_gui.scoring.batches import input_files

    files = input_files(request)
    options = {k: v for k, v in request.options.items() if not callable(v)}
    shipped: list[tuple[tuple[str, ...], ShippedPath]] = []
    for key, sha in files.items():
        role, kind, path = key.split(":", 2)
        if role == "analyzer" and sha is not None and kind in OPTION_KEYS and Path(path).expanduser().is_file():
            shipped.append((("option", OPTION_KEYS[kind]), ship(ray, Path(path).expanduser())))
            options.pop(OPTION_KEYS[kind], None)
    options.pop(DIR_OPTION, None)  # the worker looks for no analyzer this process did not find
    gloss = options.get("gloss_files")
    if isinstance(gloss, dict):
        for code, paths in gloss.items():
            for i, raw in enumerate(paths or ()):
                p = Path(str(raw)).expanduser()
                if p.is_file():
                    shipped.append((("gloss", str(code), str(i)), ship(ray, p)))
    comet = options.get(COMET_OPTION)
    if comet and Path(str(comet)).expanduser().exists():  # a local checkpoint, not a hub name
        shipped.append((("option", COMET_OPTION), ship(ray, Path(str(comet)).expanduser())))
    return dataclasses.replace(request, options=options, input_files=files, cluster=None), shipped


def _local_request(ray: Any, spec: WorkerSpec, root: Path) -> ScoringRequest:
    """The worker's request: the shipped files at their local copies, every metric in this
    process, the heavy ones asked for (the desktop asked for them already)."""
    from mteval_gui.fst.registry import DIR_OPTION

    request: ScoringRequest = spec.request if isinstance(spec.request, ScoringRequest) else ray.get(spec.request)
    options = dict(request.options)
    gloss = {str(k): list(v) for k, v in (options.get("gloss_files") or {}).items()}
    for where, shipped in spec.shipped:
        local = str(materialize(ray, shipped, root))
        if where[0] == "option":
            options[where[1]] = local
        else:
            gloss[where[1]][int(where[2])] = local
    if gloss:
        options["gloss_files"] = gloss
    empty = root / "no-analyzers"
    empty.mkdir(parents=True, exist_ok=True)
    options[DIR_OPTION] = str(empty)
    if spec.gpu:
        options["comet_gpus"] = 1
    metrics = [r for r in (request.metrics or []) if r.id in spec.metric_ids]
    return dataclasses.replace(request, options=options, metrics=metrics, include=list(spec.metric_ids),
                               exclude=(), isolation="none", workers=1, cluster=None)


class BatchWorker:
    """A cluster worker (a Ray actor): for each job it is given (:meth:`load`) it opens and
    prepares the job's metrics once, then scores the batches it is sent by their entries'
    positions. A worker outlives its job: the next job of the same desktop process loads into it
    (no new process, no imports again)."""

    def __init__(self) -> None:
        self.job: ScoringJob | None = None
        self.down: list[tuple[str, str]] = []

    def load(self, spec: WorkerSpec) -> list[tuple[str, str]]:
        """Open the metrics of ``spec``'s job; returns those that cannot run here, with why."""
        import ray

        from mteval_gui.scoring.batches import prepare, resolve_metrics
        from mteval_gui.scoring.isolation import close_all
        from mteval_gui.scoring.progress import Throttle

        if self.job is not None:
            close_all(st.metric for st in self.job.states)
        self.job, self.down = None, []
        if spec.version != __version__:
            raise ClusterUnavailable(f"this worker runs mteval-gui {__version__} and the desktop {spec.version}: "
                                     "install the same version on every node")
        request = _local_request(ray, spec, cache_dir())
        job = ScoringJob.start(request)
        job.states = resolve_metrics(request)
        prepare(job, Throttle(None))
        self.job = job
        self.down = [(st.ref.id, f"on the cluster worker: {st.reason or st.availability}")
                     for st in job.states if not st.running]
        return list(self.down)

    def pid(self) -> int:
        return os.getpid()

    def score(self, b: int, start: int, stop: int) -> tuple[list[Any], list[tuple[str, str]]]:
        """Rows of batch ``b`` (entries ``start:stop``) and the metrics that failed on it."""
        from mteval_gui.scoring.batches import score_batch

        if self.job is None:
            raise ClusterUnavailable("this worker has no job loaded")
        rows, failures = score_batch(self.job.states, self.job.items[start:stop], b)
        return rows, self.down + failures


_IDLE: dict[bool, list[Any]] = {False: [], True: []}  # workers kept for the next job, by whether they hold a GPU
_SESSION: list[Any] = [None]  # the Ray job the object references and workers above belong to


def _session(ray: Any) -> None:
    """Forget the workers and object references of an earlier connection (ray.shutdown, init again)."""
    job = ray.get_runtime_context().get_job_id()
    if _SESSION[0] != job:
        _SESSION[0] = job
        _PUT.clear()
        _IDLE[False].clear()
        _IDLE[True].clear()


# --------------------------------------------------------------------------- the helper


@dataclass
class Group:
    """Workers that score the same metrics of every batch (the GPU metrics, or the others)."""

    metric_ids: list[str]
    gpu: bool
    size: int
    actors: list[Any] = field(default_factory=list)
    load: list[int] = field(default_factory=list)  # batches queued on each actor
    generation: list[int] = field(default_factory=list)  # each actor's replacements so far
    pos: int = 0  # the next batch of the claimed order it scores
    again: list[int] = field(default_factory=list)  # batches to send again (their worker was lost)


def plan_groups(metric_ids: Sequence[str], gpu_ids: Sequence[str], *, cpus: float, gpus: float,
                workers: int | None, batches: int) -> list[Group]:
    """The groups of workers of a job: the GPU metrics on one worker per GPU when the cluster has
    a GPU, the others on ``workers`` CPU workers — by default, and at most, one per CPU of the
    cluster left by the GPU workers (each holds a CPU too: a worker that cannot be placed would
    hold its batches forever); never more workers than batches, never a group without a metric."""
    on_gpu = [m for m in metric_ids if m in set(gpu_ids)] if gpus >= 1 else []
    on_cpu = [m for m in metric_ids if m not in set(on_gpu)]
    groups = []
    n_gpu = max(1, min(int(gpus), batches)) if on_gpu else 0
    slots = max(1, int(cpus) - n_gpu)
    if on_cpu:
        groups.append(Group(on_cpu, False, max(1, min(workers or slots, slots, batches))))
    if on_gpu:
        groups.append(Group(on_gpu, True, n_gpu))
    return groups


class RayHelper:
    """Every batch of ``claims`` scored by Ray actors (see the module docstring): a
    :class:`~mteval_gui.scoring.parallel.Helper` made from ``work``, the job's portable description."""

    def __init__(self, claims: parallel.Claims, score_batch: parallel.Scorer, *, lone: parallel.Scorer | None = None,
                 work: parallel.RemoteWork | None = None) -> None:
        if work is None or not work.request.cluster:
            raise ClusterUnavailable("scoring on a cluster needs the job's description and a cluster address")
        self.claims = claims
        self.received: set[int] = set()
        self.finished = False
        self.ray = ray = connect(work.request.cluster)
        _session(ray)
        self.batch_size = work.batch_size
        self.n_entries = len(work.request.corpus.entries)
        resources = ray.cluster_resources()
        ids = [r.id for r in work.refs]
        self.groups = plan_groups(ids, work.gpu_ids, cpus=float(resources.get("CPU", 1)),
                                  gpus=float(resources.get("GPU", 0)), workers=work.request.cluster_workers,
                                  batches=len(claims.todo))
        request, shipped = _portable(ray, work.request)
        request = dataclasses.replace(request, metrics=list(work.refs), include=None, exclude=())
        request_ref = ray.put(request)
        self._remote = ray.remote(BatchWorker)
        self.specs: list[WorkerSpec] = []
        self.replaced = 0  # workers replaced after their process was lost
        self.order: list[int] = []  # the batches claimed, in the order they were claimed
        self.tries: dict[tuple[int, int], int] = {}
        self.parts: dict[int, dict[int, tuple[list[Any], list[tuple[str, str]]]]] = {}
        self.inflight: dict[Any, tuple[int, int, int, int]] = {}  # reference -> (batch, group, actor, generation)
        self.given_up: set[int] = set()
        self.pending_ready: list[Any] = []
        for gi, g in enumerate(self.groups):
            self.specs.append(WorkerSpec(request_ref, shipped, g.metric_ids, g.gpu))
            g.actors = [self._start(gi) for _ in range(g.size)]
            g.load = [0] * g.size
            g.generation = [0] * g.size
        for idle in _IDLE.values():  # workers of an earlier job not needed now: their CPUs and GPUs freed
            while idle:
                with contextlib.suppress(Exception):
                    ray.kill(idle.pop(), no_restart=True)
        n_cpu = sum(g.size for g in self.groups if not g.gpu)
        n_gpu = sum(g.size for g in self.groups if g.gpu)
        self.description = (f"{n_cpu} CPU worker(s)" + (f" and {n_gpu} GPU worker(s)" if n_gpu else "")
                            + f" on the Ray cluster ({work.request.cluster})")

    # -- the workers and the schedule

    def _start(self, gi: int, *, reuse: bool = True) -> Any:
        """A worker for group ``gi``: an idle one of an earlier job, else a new one; it loads the job."""
        g = self.groups[gi]
        idle = _IDLE[g.gpu]
        new = not (reuse and idle)
        actor = self._remote.options(num_cpus=1, num_gpus=1 if g.gpu else 0).remote() if new else idle.pop()
        self.pending_ready.append(actor.load.remote(self.specs[gi]))
        return actor

    def _lose(self, gi: int, ai: int, generation: int) -> None:
        """The worker ``ai`` of group ``gi`` failed a batch: a new one replaces it (once per loss)."""
        g = self.groups[gi]
        if generation != g.generation[ai] or not g.actors:
            return
        with contextlib.suppress(Exception):
            self.ray.kill(g.actors[ai], no_restart=True)
        g.actors[ai] = self._start(gi, reuse=False)
        g.generation[ai] += 1
        g.load[ai] = 0
        self.replaced += 1

    def _next(self, gi: int) -> int | None:
        g = self.groups[gi]
        if g.again:
            return g.again.pop(0)
        while g.pos < len(self.order):
            b = self.order[g.pos]
            g.pos += 1
            if b not in self.given_up:
                return b
        claimed = self.claims.back()
        if claimed is None:
            return None
        self.order.append(claimed)
        g.pos += 1
        return claimed

    def _fill(self) -> None:
        for gi, g in enumerate(self.groups):
            for ai, actor in enumerate(g.actors):
                while g.load[ai] < IN_FLIGHT:
                    b = self._next(gi)
                    if b is None:
                        break
                    start = b * self.batch_size
                    ref = actor.score.remote(b, start, min(start + self.batch_size, self.n_entries))
                    self.inflight[ref] = (b, gi, ai, g.generation[ai])
                    g.load[ai] += 1

    def _check_ready(self) -> None:
        """The workers that started; one that cannot (its constructor raised: the metrics do not
        open there) ends the job (:class:`ClusterUnavailable`). A worker lost while it started is
        replaced when its batches fail."""
        if not self.pending_ready:
            return
        done, self.pending_ready = self.ray.wait(self.pending_ready, num_returns=len(self.pending_ready), timeout=0)
        for ref in done:
            exc = self._error(ref)
            if exc is not None and (isinstance(exc, self.ray.exceptions.RayTaskError) or "creation task" in str(exc)):
                self.close()
                raise ClusterUnavailable(f"the cluster workers cannot open the metrics: {exc}")

    def _error(self, ref: Any) -> BaseException | None:
        try:
            self.ray.get(ref, timeout=0)
        except self.ray.exceptions.GetTimeoutError:
            return None
        except self.ray.exceptions.RayError as exc:
            error: BaseException = exc
            return error
        return None

    def outcomes(self, *, wait: bool, timeout: float = 0.2) -> Iterator[parallel.BatchOutcome]:
        """The batches the workers have finished; raises ``RuntimeError`` at the end when some
        could not be scored on the cluster (they are then scored here)."""
        ray = self.ray
        while not self.finished:
            self._check_ready()
            self._fill()
            if not self.inflight:
                self.finished = True
                self._release()
                if self.given_up:
                    raise RuntimeError(f"{len(self.given_up)} batch(es) failed on every try on the cluster")
                return
            ready, _ = ray.wait(list(self.inflight), num_returns=1, timeout=timeout if wait else 0)
            if not ready:
                return
            wait = False
            b, gi, ai, generation = self.inflight.pop(ready[0])
            g = self.groups[gi]
            if generation == g.generation[ai]:
                g.load[ai] -= 1
            try:
                rows, failures = ray.get(ready[0])
            except ray.exceptions.RayError:  # its worker was lost: replaced, the batch sent again
                self._lose(gi, ai, generation)
                n = self.tries[(b, gi)] = self.tries.get((b, gi), 0) + 1
                if n < MAX_TRIES:
                    g.again.append(b)
                else:
                    self.given_up.add(b)
                    self.parts.pop(b, None)
                continue
            if b in self.given_up:
                continue
            parts = self.parts.setdefault(b, {})
            parts[gi] = (rows, failures)
            if len(parts) == len(self.groups):
                del self.parts[b]
                self.received.add(b)
                joined = [part for i in range(len(self.groups)) for part in parts[i][0]]
                fails = [f for i in range(len(self.groups)) for f in parts[i][1]]
                yield (b, joined, fails, True)

    def lost(self, committed: set[int]) -> list[int]:
        """The batches claimed that nobody committed (they failed on every try, or the helper was stopped)."""
        return [b for b in self.claims.taken_from_back() if b not in committed and b not in self.received]

    def _release(self) -> None:
        """Every batch is back: the workers wait, idle, for the next job of this process."""
        for g in self.groups:
            _IDLE[g.gpu].extend(g.actors)
            g.actors = []

    def close(self) -> None:
        """Kill the workers (their queued batches are dropped); the connection stays for the next job."""
        for g in self.groups:
            for actor in g.actors:
                with contextlib.suppress(Exception):
                    self.ray.kill(actor, no_restart=True)
            g.actors = []
        self.inflight.clear()

