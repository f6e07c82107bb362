"""Scoring a run again reuses a stored per-entry result only when every input it was computed
from is unchanged, and tries again what failed.

Each kind of input is changed in turn — the language card's alphabet, quotes, folds and
loanwords, a word list of a plugin metric, the analyzer file, a gloss file, the metric's params,
the options — and the run scored again (``mteval score RUN --replace``) must give the run card
that scoring it for the first time, in a new workspace, gives (time stamps aside). A plugin
metric that failed once is scored again by a plain ``mteval score RUN`` (and the GUI's Score,
which follows the same plan).

The plugin ``reuse_std`` is written to a temporary folder and registered as installed; its card
for ``qaa`` is added to the user's cards (``mteval cards add``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
from pathlib import Path

import pytest

from mteval_gui import standards
from mteval_gui.cli import main
from mteval_gui.domain.plugin import StandardsPlugin
from mteval_gui.store import Workspace
from mteval_gui.store.results import load_run_card_dict
from tests.fst._support import build_tiny_hfstol

METRICS = '''
from pathlib import Path

from mteval_gui.scoring.plugins import BaseMetric, EntryScore, MetricInfo

HERE = Path(__file__).resolve().parent


class Known(BaseMetric):
    """Share of output words it knows (its word list, the gloss files, the card's loanwords), times ``weight``."""

    info = MetricInfo(id="reuse.known", version="1", display_name="Known words", scale="0-1",
                      produces=("reuse_known",), card_parts=("loanwords",), data_files=("data",))

    def prepare(self, context):
        super().prepare(context)
        words = set((HERE / "data" / "words.txt").read_text(encoding="utf-8").split())
        for path in (context.options.get("gloss_files") or {}).get(context.target_lang, []):
            words |= {line.split("\\t")[0] for line in Path(path).read_text(encoding="utf-8").splitlines() if line}
        card = context.target_card
        self.words = words | {w.casefold() for w in (card.allowed_loanwords if card is not None else [])}
        self.weight = float(self.params.get("weight", 1))

    def score_entries(self, items):
        out = []
        for it in items:
            words = it.predicted.casefold().split()
            out.append(EntryScore(self.weight * sum(w in self.words for w in words) / len(words) if words else None))
        return out


class Flaky(BaseMetric):
    """Fails the first time it is called (a marker file remembers), then scores 0.25 per entry."""

    info = MetricInfo(id="reuse.flaky", version="1", display_name="Flaky", scale="0-1", produces=("reuse_flaky",),
                      card_parts=())

    def score_entries(self, items):
        marker = Path(self.params["marker"])
        if not marker.exists():
            marker.write_text("seen", encoding="utf-8")
            raise RuntimeError("the licence server did not answer")
        return [EntryScore(0.25) for _ in items]
'''

# (id, source, reference, output): each entry depends on one input
ENTRIES = [
    ("e0", "the cat sleeps", "le chat dort", "le chat dort"),
    ("e1", "the dog", "le chien", "le chien"),
    ("e2", "the cat", "le chat", "lë chät"),  # folds
    ("e3", 'he says "yes"', 'il dit "oui"', "il dit «oui»"),  # quotes
    ("e4", "the zebra", "le zèbre", "le zèbre"),  # alphabet
    ("e5", "the town of Lomé", "la ville Lomé", "la ville Lomé"),  # loanwords
    ("e6", "the house", "la maison", "la maison"),
    ("e7", "the bird", "un oiseau", "un chien"),  # a variant (options: multi-reference)
]
LEXICON = ["le", "chat", "dort", "chien", "il", "dit", "la", "ville", "maison", "un"]
METRIC_SET = ["core.exact", "core.chrf", "core.equivalent", "core.ortho", "core.compliance", "core.fst",
              "reuse.known"]


@pytest.fixture
def plugin(tmp_path, monkeypatch) -> Path:
    """``reuse_std`` importable here and by the metric's own process, and listed as installed."""
    pkg = tmp_path / "site" / "reuse_std"
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "metrics.py").write_text(textwrap.dedent(METRICS), encoding="utf-8")
    (pkg / "data" / "words.txt").write_text("le chat\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    for name in [m for m in sys.modules if m == "reuse_std" or m.startswith("reuse_std.")]:
        monkeypatch.delitem(sys.modules, name)  # another test's copy, in another folder
    base = standards.installed_plugins()
    mine = standards.InstalledPlugin(
        name="reuse_std", declaration=StandardsPlugin(name="reuse_std", packages=["reuse_std"]),
        entry_point="reuse_std.plugin:PLUGIN", distribution="reuse-std", version="1", cards_dir=None)
    plugins = standards.Plugins(plugins=(*base.plugins, mine))
    monkeypatch.setattr(standards, "installed_plugins", lambda: plugins)
    return pkg


def _add_card(tmp: Path, *, metrics: list[dict], **changes) -> None:
    card = {"code": "qaa", "name": "Reuse test language", "quotes": ['"'],
            "orthography": {"alphabet": "abcdefghijklmnopqrstuvwxyzè", "folds": {}}, "allowed_loanwords": [],
            "evalMetrics": metrics}
    for key, value in changes.items():
        if key in ("alphabet", "folds"):
            card["orthography"][key] = value
        else:
            card[key] = value
    path = tmp / "card" / "qaa.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    assert main(["cards", "add", str(path), "--replace"]) == 0


def _known(weight: float = 1.0) -> list[dict]:
    return [{"id": "reuse.known", "python_name": "reuse_std.metrics:Known", "params": {"weight": weight}}]


def _workspace(tmp: Path, name: str) -> str:
    corpus, run = tmp / "corpus.jsonl", tmp / "run.jsonl"
    if not corpus.exists():
        corpus.write_text("".join(json.dumps({"id": i, "source": s, "reference": r,
                                              "variants": ["un chien"] if i == "e7" else []}, ensure_ascii=False)
                                  + "\n" for i, s, r, _ in ENTRIES), encoding="utf-8")
        run.write_text(json.dumps({"run": {"run_id": "r"}}) + "\n" + "".join(
            json.dumps({"id": i, "predicted": p}, ensure_ascii=False) + "\n" for i, _, _, p in ENTRIES),
            encoding="utf-8")
    db = str(tmp / f"{name}.sqlite")
    assert main(["--db", db, "import", "corpus", str(corpus), "--id", "c", "--source-lang", "eng",
                 "--target-lang", "qaa"]) == 0
    assert main(["--db", db, "import", "run", str(run), "--corpus", "c"]) == 0
    return db


def _card(db: str) -> dict:
    ws = Workspace(db)
    try:
        card = load_run_card_dict(ws, "r")
    finally:
        ws.close()
    assert card is not None
    card.pop("timestamp")
    return card


def _change(kind: str, tmp: Path, pkg: Path, analyzer: Path, gloss: Path) -> list[str]:
    """Change one input; the options a fresh scoring then needs beyond the first one's."""
    if kind in ("alphabet", "quotes", "folds", "loanwords"):
        value = {"alphabet": "abcdefghijklmnopqrstuvwxyz", "quotes": ['"', "«", "»"],
                 "folds": {"ë": "e", "ä": "a"}, "loanwords": ["Lomé"]}[kind]
        _add_card(tmp, metrics=_known(), **{"allowed_loanwords" if kind == "loanwords" else kind: value})
    elif kind == "word list":
        (pkg / "data" / "words.txt").write_text("le chat la maison\n", encoding="utf-8")
    elif kind == "analyzer":
        build_tiny_hfstol(analyzer, {w: [f"{w}+N"] for w in LEXICON if w != "chien"})
    elif kind == "gloss file":
        gloss.write_text("chien\tdog\nville\ttown\n", encoding="utf-8")
    elif kind == "metric params":
        _add_card(tmp, metrics=_known(0.5))
    elif kind == "options":
        return ["--multi-ref"]
    return []


KINDS = ["alphabet", "quotes", "folds", "loanwords", "word list", "analyzer", "gloss file", "metric params",
         "options"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_run_scored_again_after_a_change_has_the_card_of_a_fresh_scoring(kind, plugin, tmp_path, capsys):
    analyzer = tmp_path / "qaa.hfstol"
    metrics = METRIC_SET
    if importlib.util.find_spec("hfst") is not None:  # compiles the test analyzer (pyhfst only reads)
        build_tiny_hfstol(analyzer, {w: [f"{w}+N"] for w in LEXICON})
        analyzed = ["--analyzer", str(analyzer)]
    elif kind == "analyzer":
        pytest.skip("compiling a test analyzer needs hfst")
    else:
        metrics, analyzed = [m for m in METRIC_SET if m != "core.fst"], []
    gloss = tmp_path / "gloss.tsv"
    gloss.write_text("chien\tdog\n", encoding="utf-8")
    _add_card(tmp_path, metrics=_known())
    first = ["--metrics", *metrics, "--bootstrap", "20", *analyzed, "--gloss-file", f"qaa={gloss}"]
    db = _workspace(tmp_path, "scored")
    assert main(["--db", db, "score", "r", *first]) == 0
    before = _card(db)
    assert before["metric_availability"] == {**before["metric_availability"], **dict.fromkeys(metrics, "ok")}

    extra = _change(kind, tmp_path, plugin, analyzer, gloss)
    assert main(["--db", db, "score", "r", "--replace", *extra]) == 0
    again = _card(db)
    fresh_db = _workspace(tmp_path, "fresh")
    assert main(["--db", fresh_db, "score", "r", *first, *extra]) == 0
    fresh = _card(fresh_db)
    assert again == fresh
    assert again["scores"] != before["scores"]  # the change is one the scores see
    capsys.readouterr()


def test_the_reproduction_of_the_report_orthographic_accuracy_and_composite(plugin, tmp_path, capsys):
    """A changed alphabet, then ``score RUN --replace``: orthographic accuracy and the composite are
    those of a fresh scoring, under the new card's sha256."""
    _add_card(tmp_path, metrics=_known())
    db = _workspace(tmp_path, "scored")
    fast = ["--metrics", "core.exact", "core.chrf", "core.ortho", "--bootstrap", "20"]
    assert main(["--db", db, "score", "r", *fast]) == 0
    assert _card(db)["scores"]["orthographic_accuracy"] == pytest.approx(16 / 19)  # lë, chät, Lomé
    _add_card(tmp_path, metrics=_known(), alphabet="abcdefghijklmnopqrstuvwxyz")
    assert main(["--db", db, "score", "r", "--replace"]) == 0
    again = _card(db)
    assert again["scores"]["orthographic_accuracy"] == pytest.approx(15 / 19)  # and zèbre
    fresh_db = _workspace(tmp_path, "fresh")
    assert main(["--db", fresh_db, "score", "r", *fast]) == 0
    assert again == _card(fresh_db)
    capsys.readouterr()


def test_a_plugin_metric_that_failed_once_is_tried_again_by_a_plain_score(plugin, tmp_path, capsys):
    from mteval_gui.app.scoring_config import plan_scoring

    marker = tmp_path / "seen"
    flaky = [{"id": "reuse.flaky", "python_name": "reuse_std.metrics:Flaky", "params": {"marker": str(marker)}}]
    _add_card(tmp_path, metrics=flaky)
    fast = ["--metrics", "core.exact", "core.chrf", "reuse.flaky", "--bootstrap", "20"]
    db = _workspace(tmp_path, "scored")
    assert main(["--db", db, "score", "r", *fast]) == 3  # asked for with --metrics, and failed
    failed = _card(db)
    assert failed["metric_availability"]["reuse.flaky"] == "failed"
    assert failed["metric_reasons"]["reuse.flaky"] == (
        "score_entries (batch 0): RuntimeError: the licence server did not answer")
    capsys.readouterr()
    ws = Workspace(db)
    try:  # what the GUI's Score action plans: the run is scored again
        plan = plan_scoring(ws, ["r"])
    finally:
        ws.close()
    assert [(p.run_id, p.state, p.action) for p in plan.to_score] == [("r", "incomplete", "rescore")]
    assert plan.to_score[0].message == (
        "r: scoring it again with its stored configuration; trying again what failed: "
        "reuse.flaky: score_entries (batch 0): RuntimeError: the licence server did not answer")
    assert main(["--db", db, "score", "r"]) == 0
    assert plan.to_score[0].message in capsys.readouterr().out
    again = _card(db)
    assert again["metric_availability"]["reuse.flaky"] == "ok" and again["scores"]["reuse_flaky"] == 0.25
    fresh_db = _workspace(tmp_path, "fresh")
    assert main(["--db", fresh_db, "score", "r", *fast]) == 0
    assert again == _card(fresh_db)
    capsys.readouterr()
    assert main(["--db", db, "score", "r"]) == 0  # nothing failed any more: up to date
    assert "r: up to date (same configuration and inputs)" in capsys.readouterr().out


def test_an_edited_word_list_makes_the_run_stale_and_a_plain_score_rescores_it(plugin, tmp_path, capsys):
    _add_card(tmp_path, metrics=_known())
    fast = ["--metrics", "core.exact", "reuse.known", "--bootstrap", "20"]
    db = _workspace(tmp_path, "scored")
    assert main(["--db", db, "score", "r", *fast]) == 0
    # known: le chat (dort), le (chien), le (zèbre)
    assert _card(db)["scores"]["reuse_known"] == pytest.approx((2 / 3 + 1 / 2 + 1 / 2) / 8)
    capsys.readouterr()
    assert main(["--db", db, "score", "r"]) == 0
    assert "r: up to date" in capsys.readouterr().out
    (plugin / "data" / "words.txt").write_text("le chat la maison\n", encoding="utf-8")
    assert main(["--db", db, "list", "runs", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert (row["freshness"], row["stale_reasons"]) == ("stale", ["the data files of metric reuse.known changed"])
    assert main(["--db", db, "score", "r"]) == 0
    assert ("r: scoring it again with its stored configuration (inputs changed since: the data files of metric "
            "reuse.known changed)") in capsys.readouterr().out
    again = _card(db)
    # and la (ville Lomé), la maison
    assert again["scores"]["reuse_known"] == pytest.approx((2 / 3 + 1 / 2 + 1 / 2 + 1 / 3 + 1) / 8)
    fresh_db = _workspace(tmp_path, "fresh")
    assert main(["--db", fresh_db, "score", "r", *fast]) == 0
    assert again == _card(fresh_db)
