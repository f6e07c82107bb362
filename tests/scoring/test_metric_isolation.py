"""Metrics of plugin packages run where they cannot end the job: time limits, exits, NaN, retries.

A throwaway plugin package ``hostile_std`` is written to a temporary folder: its metrics sleep,
raise ``SystemExit`` or ``KeyboardInterrupt``, call ``os._exit(0)``, give NaN or infinity, or
fail on a first attempt only. In-process tests register it as an installed plugin; the CLI test
gives a fresh ``python -m mteval_gui`` a ``dist-info`` folder with its entry point and card.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mteval_gui import standards
from mteval_gui.domain.card import LanguageCard, MetricRef
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.plugin import StandardsPlugin
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring import isolation, parallel
from mteval_gui.scoring.runner import MemorySink, ScoringRequest, score_run

REPO = Path(__file__).resolve().parents[2]
CHRF = MetricRef(id="core.chrf", python_name="mteval_gui.scoring.metrics.surface:ChrfMetric")
EXACT = MetricRef(id="core.exact", python_name="mteval_gui.scoring.metrics.surface:ExactMatchMetric")

METRICS = '''
import math
import os
import time
from pathlib import Path

from mteval_gui.scoring.plugins import BaseMetric, CorpusScore, EntryScore, MetricInfo


def _info(name):
    return MetricInfo(id=f"hostile.{name}", version="1", display_name=name, scale="0-1", produces=(f"hostile_{name}",))


class Sleeps(BaseMetric):
    info = _info("sleeps")

    def score_entries(self, items):
        time.sleep(120)
        return [EntryScore(1.0) for _ in items]


class Exits(BaseMetric):
    info = _info("exits")

    def score_entries(self, items):
        raise SystemExit(3)


class Interrupts(BaseMetric):
    info = _info("interrupts")

    def score_entries(self, items):
        raise KeyboardInterrupt


class HardExit(BaseMetric):
    info = _info("hard_exit")

    def score_entries(self, items):
        os._exit(0)


class Nan(BaseMetric):
    info = _info("nan")

    def score_entries(self, items):
        return [EntryScore(math.nan if it.index == 2 else 1.0) for it in items]


class InfiniteCorpus(BaseMetric):
    info = _info("inf")

    def score_entries(self, items):
        return [EntryScore(1.0) for _ in items]

    def aggregate(self, per_entry, context):
        return CorpusScore({"hostile_inf": math.inf})


class Flaky(BaseMetric):
    """Fails on entry 4 the first time it sees it (a marker file remembers), then scores 0.25 per entry."""

    info = _info("flaky")

    def score_entries(self, items):
        marker = Path(self.params["marker"])
        if any(it.index == 4 for it in items) and not marker.exists():
            marker.write_text("seen", encoding="utf-8")
            raise RuntimeError("the licence server did not answer")
        return [EntryScore(0.25) for _ in items]


class WhereAmI(BaseMetric):
    info = _info("where")

    def score_entries(self, items):
        return [EntryScore(1.0, detail={"pid": os.getpid()}) for _ in items]
'''

PLUGIN = '''
from mteval_gui.domain.plugin import StandardsPlugin

PLUGIN = StandardsPlugin(name="hostile_std", packages=["hostile_std"], cards="cards")
'''


def _ref(name: str, **kw) -> MetricRef:
    cls = {"sleeps": "Sleeps", "exits": "Exits", "interrupts": "Interrupts", "hard_exit": "HardExit", "nan": "Nan",
           "inf": "InfiniteCorpus", "flaky": "Flaky", "where": "WhereAmI"}[name]
    return MetricRef(id=f"hostile.{name}", python_name=f"hostile_std.metrics:{cls}", **kw)


def _write_plugin(root: Path) -> Path:
    pkg = root / "hostile_std"
    (pkg / "cards").mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "metrics.py").write_text(textwrap.dedent(METRICS), encoding="utf-8")
    (pkg / "plugin.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    return pkg


@pytest.fixture
def hostile(tmp_path, monkeypatch) -> Path:
    """The plugin importable here (and by spawned children) and listed as installed."""
    root = tmp_path / "site"
    _write_plugin(root)
    monkeypatch.syspath_prepend(str(root))
    base = standards.installed_plugins()
    mine = standards.InstalledPlugin(
        name="hostile_std", declaration=StandardsPlugin(name="hostile_std", packages=["hostile_std"]),
        entry_point="hostile_std.plugin:PLUGIN", distribution="hostile-std", version="1", cards_dir=None)
    plugins = standards.Plugins(plugins=(*base.plugins, mine))
    monkeypatch.setattr(standards, "installed_plugins", lambda: plugins)
    return tmp_path


def _corpus(n: int = 12) -> Corpus:
    return Corpus(corpus_id="toy", language_pair=LanguagePair(source="eng", target="fra"), entries=[
        Entry(id=f"e{i}", source=f"The cat {i}", reference=f"Le chat {i}") for i in range(n)])


def _run(n: int = 12) -> Run:
    outs = [Output(id=f"e{i}", predicted=f"Le chat {i}" if i % 3 else f"Un chat {i}") for i in range(n)]
    return Run(meta=RunMeta(run_id="toy-run", model_slug="toy"), corpus_id="toy", outputs=outs)


def _score(*metrics: MetricRef, sink: MemorySink | None = None, **kw):
    request = ScoringRequest(run_id="toy-run", corpus=_corpus(), run=_run(), metrics=[CHRF, *metrics], batch_size=4,
                             n_bootstrap=50, **kw)
    return score_run(request, sink=sink)


def _failed(card, metric_id: str) -> str:
    assert card.metric_availability[metric_id] == "failed", card.metric_reasons.get(metric_id)
    assert card.metric_availability["core.chrf"] == "ok" and card.scores.chrf_plus_plus is not None
    return card.metric_reasons[metric_id]


def test_only_plugin_packages_run_in_a_process_of_their_own(hostile):
    assert isolation.isolated_by_default(_ref("where"))
    assert not isolation.isolated_by_default(CHRF)
    assert not isolation.isolated_by_default(
        MetricRef(id="crk.lint", python_name="eval_standards.crk.linter:CrkLinterMetric"))
    assert not isolation.isolated_by_default(MetricRef(id="test.count", python_name="tests.scoring.x:Y"))
    res = _score(_ref("where"))
    pids = {e.detail["pid"] for e in res.per_entry["hostile.where"] if e is not None}
    assert len(pids) == 1 and os.getpid() not in pids
    assert res.run_card.metric_availability["hostile.where"] == "ok"
    assert res.run_card.scores.model_dump()["hostile_where"] == 1.0


def test_a_metric_past_its_time_limit_is_failed_and_the_others_go_on(hostile):
    card = _score(_ref("sleeps", time_limit_s=1), EXACT).run_card
    assert _failed(card, "hostile.sleeps") == "score_entries (batch 0): timed out after 1 s"
    assert card.metric_availability["core.exact"] == "ok" and card.scores.exact_match_rate == pytest.approx(8 / 12)


def test_the_time_limit_is_declared_in_the_card_and_its_schema():
    card = LanguageCard.model_validate({"code": "qaa", "name": "Test", "evalMetrics": [
        {"id": "hostile.sleeps", "python_name": "hostile_std.metrics:Sleeps", "time_limit_s": 2.5}]})
    assert card.eval_metrics[0].time_limit_s == 2.5
    with pytest.raises(ValueError, match="greater than 0"):
        MetricRef(id="a.b", python_name="a:B", time_limit_s=0)
    schema = json.loads((REPO / "resources" / "schemas" / "language_card.json").read_text(encoding="utf-8"))
    assert "time_limit_s" in schema["$defs"]["MetricRef"]["properties"]
    assert "time_limit_s" in (REPO / "docs" / "adding-a-language.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "reason"), [
    ("exits", "score_entries (batch 0): SystemExit: 3"),
    ("interrupts", "score_entries (batch 0): KeyboardInterrupt"),
    ("hard_exit", "score_entries (batch 0): its process ended (exit code 0)"),
])
def test_exits_from_a_metric_end_only_that_metric(hostile, name, reason):
    res = _score(_ref(name), EXACT)
    assert _failed(res.run_card, f"hostile.{name}") == reason
    assert res.run_card.metric_availability["core.exact"] == "ok"
    assert [r.entry_id for r in res.run_card.results] == [f"e{i}" for i in range(12)]


def test_system_exit_from_an_in_process_metric_is_contained_too(hostile):
    card = _score(_ref("exits"), isolation="none").run_card
    assert _failed(card, "hostile.exits") == "score_entries (batch 0): SystemExit: 3"


def test_nan_or_infinity_is_failed_not_ok_with_null(hostile):
    card = _score(_ref("nan"), _ref("inf")).run_card
    assert _failed(card, "hostile.nan") == "score_entries (batch 0): entry e2: value nan is not a finite number"
    assert _failed(card, "hostile.inf") == "aggregate: hostile_inf is inf, not a finite number"


def test_nan_from_an_in_process_metric_is_failed_too(hostile):
    card = _score(_ref("nan"), isolation="none").run_card
    assert _failed(card, "hostile.nan") == "score_entries (batch 0): entry e2: value nan is not a finite number"


def test_a_metric_that_failed_is_tried_again_on_resume(hostile):
    sink = MemorySink()
    flaky = _ref("flaky", params={"marker": str(hostile / "seen")})
    first = _score(flaky, sink=sink)
    assert _failed(first.run_card, "hostile.flaky") == (
        "score_entries (batch 1): RuntimeError: the licence server did not answer")
    again = _score(flaky, sink=sink)
    assert again.run_card.metric_availability["hostile.flaky"] == "ok"
    assert again.run_card.scores.model_dump()["hostile_flaky"] == 0.25
    assert [e.value for e in again.per_entry["hostile.flaky"]] == [0.25] * 12  # type: ignore[union-attr]
    assert again.batches_reused == 1 and again.batches_scored == 2  # batch 0 had every metric's results
    assert again.run_card.scores.chrf_plus_plus == first.run_card.scores.chrf_plus_plus


def _installed_plugin(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """The plugin with a ``dist-info`` entry point and a card for ``qaa`` whose metric calls ``os._exit(0)``;
    a 4-entry corpus and run file; the environment of a fresh ``python -m mteval_gui`` that finds it."""
    site = tmp_path / "site"
    pkg = _write_plugin(site)
    card = {"code": "qaa", "name": "Hostile test language", "evalMetrics": [
        {"id": "hostile.hard_exit", "python_name": "hostile_std.metrics:HardExit", "params": {}}]}
    (pkg / "cards" / "qaa.json").write_text(json.dumps(card), encoding="utf-8")
    dist = site / "hostile_std-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-std\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[mteval_gui.standards]\nhostile_std = hostile_std.plugin:PLUGIN\n",
                                           encoding="utf-8")
    corpus, run = tmp_path / "corpus.jsonl", tmp_path / "run.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"e{i}", "source": f"cat {i}", "reference": f"chat {i}"}) + "\n"
                              for i in range(4)), encoding="utf-8")
    run.write_text("".join(json.dumps({"id": f"e{i}", "predicted": f"chat {i}"}) + "\n" for i in range(4)),
                   encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(REPO)]), "MTEVAL_HOME": str(tmp_path / "home")}
    for name in ("MTEVAL_CARDS_DIR", "MTEVAL_DB"):
        env.pop(name, None)
    return corpus, run, env


def test_evaluate_writes_a_run_card_and_exits_non_zero_only_for_a_failed_metric_asked_for(tmp_path):
    """``os._exit(0)`` inside a plugin metric, through the real entry-point discovery of a fresh process."""
    corpus, run, env = _installed_plugin(tmp_path)

    def evaluate(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mteval_gui", "evaluate", "--corpus", str(corpus), "--run",
                               str(run), "--lang", "qaa", "--source-lang", "eng", "--bootstrap", "20", "-o", str(out),
                               *extra], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)

    every = evaluate(tmp_path / "all.json")
    assert every.returncode == 0, every.stderr
    written = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert written["metric_availability"]["hostile.hard_exit"] == "failed"
    assert written["metric_reasons"]["hostile.hard_exit"] == "score_entries (batch 0): its process ended (exit code 0)"
    assert written["scores"]["exact_match_rate"] == 1.0
    assert "hostile.hard_exit: failed" in every.stdout

    asked = evaluate(tmp_path / "asked.json", "--metrics", "core.exact", "hostile.hard_exit")
    assert asked.returncode == 3, asked.stderr
    assert json.loads((tmp_path / "asked.json").read_text(encoding="utf-8"))["scores"]["exact_match_rate"] == 1.0
    assert "mteval: hostile.hard_exit failed (asked for with --metrics); the run card was written" in asked.stderr


@pytest.mark.slow
def test_score_on_a_workspace_exits_3_for_a_failed_metric_asked_for_and_stores_the_run_card(tmp_path):
    """``mteval score`` on a workspace, the metric of a plugin found by its entry point in a fresh process."""
    corpus, run, env = _installed_plugin(tmp_path)
    db = tmp_path / "ws.sqlite"
    other = tmp_path / "other.jsonl"
    other.write_text(run.read_text(encoding="utf-8").replace("chat 3", "chien 3"), encoding="utf-8")

    def mteval(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mteval_gui", "--db", str(db), *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600)

    for args in (("import", "corpus", str(corpus), "--id", "c", "--source-lang", "eng", "--target-lang", "qaa"),
                 ("import", "run", str(run), "--corpus", "c", "--run-id", "asked"),
                 ("import", "run", str(other), "--corpus", "c", "--run-id", "every")):
        done = mteval(*args)
        assert done.returncode == 0, done.stderr
    asked = mteval("score", "asked", "--metrics", "core.exact", "hostile.hard_exit", "--bootstrap", "20")
    assert asked.returncode == 3, asked.stderr
    assert "mteval: hostile.hard_exit failed (asked for with --metrics); the run card was written (asked)" in (
        asked.stderr)
    assert "hostile.hard_exit: failed — score_entries (batch 0): its process ended (exit code 0)" in asked.stdout
    exported = mteval("export", "runcard", "asked", "-o", str(tmp_path / "asked.json"))
    assert exported.returncode == 0, exported.stderr
    card = json.loads((tmp_path / "asked.json").read_text(encoding="utf-8"))
    assert card["metric_availability"]["hostile.hard_exit"] == "failed"
    assert card["metric_availability"]["core.exact"] == "ok" and card["scores"]["exact_match_rate"] == 1.0
    listed = mteval("list", "runs")
    assert [line.split()[-1] for line in listed.stdout.splitlines() if line.startswith("asked ")] == ["scored"]
    # the same failure in a metric not named with --metrics: the run is scored, exit status 0
    every = mteval("score", "every", "--bootstrap", "20")
    assert every.returncode == 0, every.stderr
    assert "hostile.hard_exit: failed" in every.stdout


@pytest.mark.skipif(not parallel.can_fork(), reason="needs os.fork")
def test_with_two_workers_a_metric_in_a_process_of_its_own_is_scored_by_the_parent_only(hostile, monkeypatch):
    """The forked helper scores the in-process metrics of its batches; it never writes to an isolated metric's pipe."""
    callers = hostile / "callers"
    real_score = isolation.ProcessMetric.score_entries

    def recorded(self, items):
        with callers.open("a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {items[0].index}\n")
        if items[0].index == 0:
            # the parent's first isolated batch waits a moment: on a busy machine the parent could otherwise
            # claim every batch before the forked helper has started, and the helper would score none
            time.sleep(0.5)
        return real_score(self, items)

    helpers: list[parallel.BatchHelper] = []
    real_init = parallel.BatchHelper.__init__

    def init(self, claims, score_batch, **kw):
        helpers.append(self)
        real_init(self, claims, score_batch, **kw)

    monkeypatch.setattr(isolation.ProcessMetric, "score_entries", recorded)
    monkeypatch.setattr(parallel.BatchHelper, "__init__", init)

    def request(workers: int, *metrics: MetricRef) -> ScoringRequest:
        return ScoringRequest(run_id="toy-run", corpus=_corpus(20), run=_run(20), metrics=[CHRF, EXACT, *metrics],
                              batch_size=4, n_bootstrap=50, workers=workers)

    both = score_run(request(2, _ref("where")))
    assert helpers and helpers[0].received  # the helper scored batches (their in-process metrics)
    calls = sorted(callers.read_text(encoding="utf-8").split("\n")[:-1], key=lambda line: int(line.split()[1]))
    assert calls == [f"{os.getpid()} {b * 4}" for b in range(5)]
    assert both.run_card.metric_availability["hostile.where"] == "ok"
    assert [e.value for e in both.per_entry["hostile.where"]] == [1.0] * 20  # type: ignore[union-attr]
    pids = {e.detail["pid"] for e in both.per_entry["hostile.where"] if e is not None}
    assert len(pids) == 1 and os.getpid() not in pids
    serial = score_run(request(1, _ref("where"))).run_card
    assert both.run_card.scores.chrf_plus_plus == serial.scores.chrf_plus_plus
    assert both.run_card.scores.exact_match_rate == serial.scores.exact_match_rate == pytest.approx(13 / 20)

    failing = score_run(request(2, _ref("hard_exit"))).run_card
    assert _failed(failing, "hostile.hard_exit") == "score_entries (batch 0): its process ended (exit code 0)"
    assert failing.scores.chrf_plus_plus == serial.scores.chrf_plus_plus
