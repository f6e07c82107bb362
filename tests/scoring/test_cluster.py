"""Batches scored on a Ray cluster: the same run card and rows as local scoring, a lost worker's
batches scored again, cancel and resume as locally, files sent by content."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sys

import pytest

from mteval_gui.domain.card import MetricRef
from mteval_gui.errors import Cancelled
from mteval_gui.scoring import cluster
from mteval_gui.scoring.plugins import metrics_for
from mteval_gui.scoring.runner import CancelToken, MemorySink, score_run
from tests.app.test_score_pool import _stored
from tests.cli.test_scoring_cli import toy_ws  # noqa: F401  # the fixture
from tests.scoring.test_parallel import METRICS, _comparable
from tests.scoring.test_runner import T, _request

PID = MetricRef(id="test.pid", python_name=f"{T}:PidMetric")
SLEEPY = MetricRef(id="test.sleepy", python_name=f"{T}:SleepyMetric")
GPU = MetricRef(id="test.gpu", python_name=f"{T}:GpuMetric")
def _slow_request(**kw):
    """20 batches that each take a while (the test acts while batches are queued on the workers)."""
    return _request(metrics=[*metrics_for(None, include=METRICS), SLEEPY], include=None, batch_size=2, **kw)


NO_RAY = "scoring on a cluster needs Ray, which is not installed: pip install 'mteval-gui[cluster]'"


def test_gpu_metrics_get_gpu_workers_only_when_the_cluster_has_a_gpu():
    ids = ["core.chrf", "core.comet", "core.bleu"]
    with_gpu = cluster.plan_groups(ids, ["core.comet"], cpus=8, gpus=2, workers=None, batches=10)
    assert [(g.metric_ids, g.gpu, g.size) for g in with_gpu] == [  # each GPU worker holds a CPU too
        (["core.chrf", "core.bleu"], False, 6), (["core.comet"], True, 2)]
    without = cluster.plan_groups(ids, ["core.comet"], cpus=4, gpus=0, workers=None, batches=10)
    assert [(g.metric_ids, g.gpu, g.size) for g in without] == [(ids, False, 4)]
    # never more workers than batches; a group without metrics is left out
    few = cluster.plan_groups(["core.comet"], ["core.comet"], cpus=4, gpus=4, workers=3, batches=2)
    assert [(g.metric_ids, g.gpu, g.size) for g in few] == [(["core.comet"], True, 2)]
    asked = cluster.plan_groups(["core.chrf"], [], cpus=8, gpus=0, workers=4, batches=10)
    assert [g.size for g in asked] == [4]
    # never more workers than the cluster can place (one that cannot start would hold its batches)
    too_many = cluster.plan_groups(["core.chrf"], [], cpus=2, gpus=0, workers=4, batches=10)
    assert [g.size for g in too_many] == [2]


def test_the_model_metrics_declare_a_gpu():
    from mteval_gui.scoring.metrics.comet import CometMetric
    from mteval_gui.scoring.metrics.embedding import EmbeddingSemanticMetric
    from mteval_gui.scoring.metrics.surface import ChrfMetric

    assert CometMetric.info.gpu and EmbeddingSemanticMetric.info.gpu and not ChrfMetric.info.gpu


def test_without_ray_scoring_on_a_cluster_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(cluster.ClusterUnavailable) as err:
        score_run(_request(include=["core.chrf"], cluster="local"))
    assert str(err.value) == NO_RAY


def test_a_bundle_without_ray_says_to_install_with_pip(monkeypatch):
    from mteval_gui import paths

    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.setattr(paths, "is_frozen", lambda: True)
    with pytest.raises(cluster.ClusterUnavailable) as err:
        cluster.import_ray()
    assert str(err.value) == ("scoring on a cluster needs Ray, which is not installed: this bundle does not include "
                              "it; install mteval-gui with pip instead: pip install 'mteval-gui[cluster]'")


def test_a_head_that_does_not_answer_is_reported_at_once():
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(cluster.ClusterUnavailable) as err:
        cluster._reachable(f"127.0.0.1:{port}", timeout=2)
    assert str(err.value).startswith(f"cannot reach the Ray head at 127.0.0.1:{port}: ")
    assert str(err.value).endswith("(is `ray start --head` running there, and the port open?)")
    cluster._reachable("auto")  # left to Ray


def test_the_cli_says_how_to_install_ray_before_opening_anything(monkeypatch, tmp_path, capsys):
    from mteval_gui.cli import main

    monkeypatch.setitem(sys.modules, "ray", None)
    db = tmp_path / "ws.sqlite"
    assert main(["--db", str(db), "score", "some-run", "--cluster", "local"]) != 0
    assert NO_RAY in capsys.readouterr().err
    assert not db.exists()  # nothing was created
    assert main(["--db", str(db), "score", "some-run", "--cluster-workers", "2"]) != 0
    assert "--cluster-workers needs --cluster ADDRESS" in capsys.readouterr().err


# --------------------------------------------------------------------------- on a local cluster


@pytest.fixture(scope="module")
def ray_local(tmp_path_factory):
    ray = pytest.importorskip("ray")
    cache = tmp_path_factory.mktemp("cluster-cache")
    old = os.environ.get(cluster.CACHE_ENV)
    os.environ[cluster.CACHE_ENV] = str(cache)  # the workers inherit it
    # one GPU declared (none is used): the placement of the metrics that declare one is tested too
    ray.init(num_cpus=2, num_gpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield ray
    ray.shutdown()
    cluster._PUT.clear()
    if old is None:
        os.environ.pop(cluster.CACHE_ENV, None)
    else:
        os.environ[cluster.CACHE_ENV] = old


@pytest.fixture
def helpers(monkeypatch):
    made: list[cluster.RayHelper] = []
    real = cluster.RayHelper.__init__

    def record(self, *args, **kwargs):
        real(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(cluster.RayHelper, "__init__", record)
    return made


@pytest.mark.slow  # the first test of the module starts the cluster (10-20 s)
def test_files_travel_by_content_and_are_written_once(ray_local, tmp_path):
    src = tmp_path / "desk" / "ewe.hfstol"
    src.parent.mkdir()
    src.write_bytes(b"analyzer bytes")
    shipped = cluster.ship(ray_local, src)
    sha = hashlib.sha256(b"analyzer bytes").hexdigest()
    assert (shipped.name, shipped.folder, [f.sha256 for f in shipped.files]) == ("ewe.hfstol", False, [sha])
    local = cluster.materialize(ray_local, shipped, tmp_path / "worker")
    assert local == tmp_path / "worker" / shipped.sha256 / "ewe.hfstol"
    assert local.read_bytes() == b"analyzer bytes"
    src.write_bytes(b"changed on the desktop")  # the worker's copy is its content's, not the path's
    assert cluster.materialize(ray_local, shipped, tmp_path / "worker").read_bytes() == b"analyzer bytes"
    folder = tmp_path / "desk" / "model"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "w.bin").write_bytes(b"w")
    (folder / "config.json").write_text("{}")
    copy = cluster.materialize(ray_local, cluster.ship(ray_local, folder), tmp_path / "worker")
    assert sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()) == [
        "config.json", "sub/w.bin"]


@pytest.mark.slow
def test_the_request_sent_names_no_path_of_this_machine(ray_local, tmp_path):
    analyzer = tmp_path / "crk-strict.hfstol"
    analyzer.write_bytes(b"fst")
    request = _request(include=["core.chrf"], cluster="local", options={
        "analyzer_path": str(analyzer), "analyzers_dir": str(tmp_path), "fst_cache": lambda sha: None},
        input_files={f"analyzer:strict:{analyzer}": hashlib.sha256(b"fst").hexdigest()})
    portable, shipped = cluster._portable(ray_local, request)
    assert portable.options == {} and portable.cluster is None
    assert [(where, s.name, s.files[0].sha256) for where, s in shipped] == [
        (("option", "analyzer_path"), "crk-strict.hfstol", hashlib.sha256(b"fst").hexdigest())]


@pytest.mark.slow
def test_a_run_scored_on_the_cluster_has_the_local_run_card(ray_local, helpers):
    local_sink, cluster_sink = MemorySink(), MemorySink()
    local = score_run(_request(include=METRICS, batch_size=4), sink=local_sink)
    on_cluster = score_run(_request(include=METRICS, batch_size=4, cluster="local"), sink=cluster_sink)
    assert _comparable(on_cluster) == _comparable(local)
    assert cluster_sink.rows == local_sink.rows
    assert sorted(cluster_sink.batches["toy-run"]) == list(range(10)) and on_cluster.batches_scored == 10
    assert [g.size for g in helpers[0].groups] == [2]
    assert len(cluster._IDLE[False]) == 2  # kept for the next run of this process
    # scored by the workers, not here
    pids = set()

    class Sink(MemorySink):
        def write_batch(self, run_id, batch_index, config_hash, rows):
            pids.update(r.data["detail"]["pid"] for r in rows if r.metric_id == "test.pid")
            super().write_batch(run_id, batch_index, config_hash, rows)

    score_run(_request(metrics=[PID], include=None, batch_size=4, cluster="local"), sink=Sink())
    assert len(pids) >= 1 and os.getpid() not in pids
    assert helpers[1].groups[0].actors == [] and len(cluster._IDLE[False]) == 2


@pytest.mark.slow
def test_a_killed_worker_is_replaced_and_its_batches_scored_again(ray_local, helpers):
    killed: list[int] = []

    def kill_one(p):
        if p.stage == "scoring" and p.done > 0 and not killed and helpers:
            pid = ray_local.get(helpers[0].groups[0].actors[0].pid.remote())
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    sink = MemorySink()
    res = score_run(_slow_request(cluster="local"), sink=sink, on_progress=kill_one)
    assert len(killed) == 1 and helpers[0].replaced == 1 and helpers[0].tries
    assert sorted(sink.batches["toy-run"]) == list(range(20))
    local_sink = MemorySink()
    assert _comparable(res) == _comparable(score_run(_slow_request(), sink=local_sink))
    assert sink.rows == local_sink.rows


@pytest.mark.slow
def test_cancel_and_resume_on_the_cluster(ray_local):
    token = CancelToken()

    def cancel_after_two(p):
        if p.stage == "scoring" and p.done >= 4:
            token.cancel()

    sink = MemorySink()
    with pytest.raises(Cancelled):
        score_run(_slow_request(cluster="local"), sink=sink, cancel=token, on_progress=cancel_after_two)
    assert sink.states["toy-run"] == "cancelled"
    assert cluster._IDLE[False] == []  # a cancelled job's workers are killed, not kept
    committed = sink.done_batches("toy-run", sink.jobs["toy-run"]["config_hash"])
    assert 2 <= len(committed) < 20
    res = score_run(_slow_request(cluster="local"), sink=sink)
    assert res.batches_reused == len(committed) and res.batches_scored == 20 - len(committed)
    assert _comparable(res) == _comparable(score_run(_slow_request()))


@pytest.mark.slow
def test_mteval_score_on_the_cluster_stores_what_local_scoring_stores(ray_local, toy_ws, tmp_path):  # noqa: F811
    from mteval_gui.cli import main

    local_db = tmp_path / "local.sqlite"
    shutil.copy(toy_ws, local_db)
    args = ["score", "good", "poor", "--metrics", "core.exact", "core.chrf", "core.bleu", "core.ter", "--bootstrap",
            "50", "--batch-size", "10"]
    assert main(["--db", str(local_db), *args]) == 0
    assert main(["--db", str(toy_ws), *args, "--cluster", "local", "--cluster-workers", "2"]) == 0
    assert _stored(toy_ws) == _stored(local_db)


@pytest.mark.slow
def test_a_metric_that_declares_a_gpu_is_scored_by_a_gpu_worker(ray_local, helpers):
    metrics = [*metrics_for(None, include=["core.chrf", "core.exact"]), GPU]
    sink, local_sink = MemorySink(), MemorySink()
    res = score_run(_request(metrics=metrics, include=None, batch_size=4, cluster="local"), sink=sink)
    assert [(g.metric_ids, g.gpu, g.size) for g in helpers[0].groups] == [
        (["core.exact", "core.chrf"], False, 1), (["test.gpu"], True, 1)]
    local = score_run(_request(metrics=metrics, include=None, batch_size=4), sink=local_sink)
    assert _comparable(res)["scores"] == _comparable(local)["scores"]

    def rows(s, gpu):
        return {k: r for k, r in s.rows["toy-run"].items() if (k[0] == "test.gpu") == gpu}

    assert rows(sink, False) == rows(local_sink, False) and len(rows(sink, False)) == 80
    # the GPU worker was told to use its GPU (COMET's option), this process was not
    assert {r.data["detail"]["gpus"] for r in rows(sink, True).values()} == {1}
    assert {r.data["detail"]["gpus"] for r in rows(local_sink, True).values()} == {0}
