"""File > Analyzer gaps: the ranked words with the real Cree analyzers, the exports, the comparison, in French."""

from __future__ import annotations

import shutil

import pytest
import yaml

from mteval_gui.app.settings import set_setting
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.qt import dialogs
from mteval_gui.qt.gaps_dialog import GapsDialog
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as J

pytestmark = pytest.mark.shared_data

REFERENCES = {"e1": "êwako nipâw.", "e2": "kotak atim nipâw.", "e3": "êwako kotak nipâwak.", "e4": "êwako ninipân."}
STRICT, DESCRIPTIVE = "crk-strict-analyzer-for-dictionary.hfstol", "crk-descriptive-analyzer.hfstol"


@pytest.fixture
def gaps_ws(tmp_path, shared_data):
    folder = tmp_path / "analyzers" / "crk"
    folder.mkdir(parents=True)
    for name in (STRICT, DESCRIPTIVE):
        shutil.copyfile(shared_data / "crk" / "fst" / name, folder / name)
    ws = Workspace(tmp_path / "ws.sqlite")
    set_setting(ws, "analyzer_dir", str(folder.parent))
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=[
        Entry(id=k, source=f"s {k}", reference=v) for k, v in REFERENCES.items()]))
    repo.add_run(ws, Run(meta=RunMeta(run_id="sys"), corpus_id="c", outputs=[
        Output(id="e1", predicted="êwako nipâw"), Output(id="e2", predicted="nipâw")]))
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana", consent_scope="research, share"))
    J.record_judgment(ws, Judgment(reviewer_id="ana", run_id="sys", entry_id="e1", task="C",
                                   payload={"word": "êwako", "valid": "Yes", "kind": "Established"}))
    yield ws
    ws.close()


def build(qtbot, dlg):
    dlg.corpora.item(0).setCheckState(dlg.corpora.item(0).checkState().Checked)
    dlg.build()
    assert dlg.task.wait(60000)


def test_the_dialog_ranks_the_words_and_exports_them(qtbot, gaps_ws, tmp_path):
    dlg = GapsDialog(gaps_ws, ["sys"])
    qtbot.addWidget(dlg)
    assert dlg.chosen_corpora() == ["c"] and dlg.chosen_runs() == ["sys"]  # the selected run's corpus is checked
    assert not dlg.yaml_button.isEnabled()
    build(qtbot, dlg)
    assert dlg.summary.text() == "2 words the crk strict analyzer rejects in 6 texts (6 occurrences)."
    rows = [[dlg.table.item(r, c).text() for c in range(8)] for r in range(dlg.table.rowCount())]
    assert rows == [["1", "êwako", "4", "3", "1", "unknown", "1 / 0 / 0", "êwako+Ipc"],
                    ["2", "kotak", "2", "2", "0", "unknown", "—", "kotak+Ipc"]]
    text = dlg.detail.toPlainText()
    assert "reference e1: êwako nipâw." in text and "reference e4: êwako ninipân." in text
    assert dlg.yaml_button.isEnabled()
    out = tmp_path / "crk.yaml"
    dlg.write_yaml(out)
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["Tests"] == {
        "crk words speakers confirmed": {"êwako+Ipc": ["êwako"]}}
    assert dlg.summary.text() == f"Wrote 1 confirmed words to {out}."
    missing = tmp_path / "missing.txt"
    dlg.write_missing(missing)
    assert missing.read_text(encoding="utf-8") == "      4 êwako\n      2 kotak\n"


def test_compare_analyzers_shows_both_rates(qtbot, gaps_ws, tmp_path, monkeypatch, shared_data):
    shown = []
    monkeypatch.setattr(dialogs, "inform", lambda parent, title, text: shown.append((title, text)))
    dlg = GapsDialog(gaps_ws, ["sys"])
    qtbot.addWidget(dlg)
    fst = shared_data / "crk" / "fst"
    text = dlg.compare_files(["sys"], fst / STRICT, fst / DESCRIPTIVE)
    assert shown == [("Compare analyzers", text)]
    assert text.splitlines() == [
        "False-rejection rate of the words speakers judged (Task C; Wilson 95% CI):",
        f"before ({STRICT}): 1.000 [0.207, 1.000] (1/1)",
        f"after ({DESCRIPTIVE}): n/a (no judged word rejected)",
        "valid words the new analyzer accepts: 1; words judged invalid it accepts: 0"]


def test_an_error_is_shown_and_nothing_is_kept(qtbot, gaps_ws, monkeypatch):
    errors = []
    monkeypatch.setattr(dialogs, "show_error", lambda parent, exc: errors.append(str(exc)))
    set_setting(gaps_ws, "analyzer_dir", "/nonexistent-analyzers")
    dlg = GapsDialog(gaps_ws, ["sys"])
    qtbot.addWidget(dlg)
    build(qtbot, dlg)
    assert errors == ["no strict analyzer installed for crk: run `mteval analyzers install crk PATH_OR_URL`"]
    assert dlg.inputs is None and dlg.table.rowCount() == 0 and not dlg.yaml_button.isEnabled()


def test_the_dialog_speaks_french(qtbot, gaps_ws, french):
    dlg = GapsDialog(gaps_ws, ["sys"])
    qtbot.addWidget(dlg)
    assert dlg.windowTitle() == "Lacunes de l'analyseur"
    assert dlg.build_button.text() == "Établir le rapport"
    build(qtbot, dlg)
    assert dlg.summary.text().startswith("2 mots que l'analyseur strict crk rejette")
    assert dlg.table.item(0, 5).text() == "inconnu"


def test_every_kind_rule_has_its_translatable_text():
    from mteval_gui.qt.gaps_dialog import KIND_NAMES, RULE_TEXTS
    from mteval_gui.validation.gaps import KINDS, RULES

    assert RULE_TEXTS == RULES and tuple(KIND_NAMES) == KINDS
