"""Import dialog: preview, every defect of a rejected file listed, nothing written; drag and drop."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent

from mteval_gui.qt.import_dialog import ImportDialog
from mteval_gui.store import repo


def _problems(dlg):
    return [dlg.problems.item(i).text() for i in range(dlg.problems.count())]


def test_rejected_run_lists_all_defects_and_writes_nothing(qtbot, small_ws, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "e1", "predicted": "atim"}\n{"id": "e2", "predicted": \n{"predicted": "no id"}\n',
                   encoding="utf-8")
    before = repo.counts(small_ws)
    dlg = ImportDialog(small_ws, "run")
    qtbot.addWidget(dlg)
    dlg.corpus_combo.setCurrentIndex(dlg.corpus_combo.findData("mini"))
    dlg.set_path(bad)
    assert dlg.summary.text().startswith("Format jsonl")
    with qtbot.waitSignal(dlg.import_finished, timeout=60000):
        dlg.do_import()
    problems = _problems(dlg)
    assert any(p.startswith(f"{bad}:2:") and "invalid JSON" in p for p in problems)
    assert any(p.startswith(f"{bad}:3:") for p in problems)
    assert "Nothing was written" in dlg.problems_label.text()
    assert dlg.result() == 0 and dlg.imported is None
    assert repo.counts(small_ws) == before


def test_unknown_ids_rejected_by_the_store(qtbot, small_ws, tmp_path):
    bad = tmp_path / "ids.jsonl"
    bad.write_text(
        '{"id": "e1", "predicted": "atim"}\n{"id": "x9", "predicted": "a"}\n{"id": "x10", "predicted": "b"}\n',
        encoding="utf-8",
    )
    before = repo.counts(small_ws)
    dlg = ImportDialog(small_ws, "run")
    qtbot.addWidget(dlg)
    dlg.corpus_combo.setCurrentIndex(dlg.corpus_combo.findData("mini"))
    dlg.set_path(bad)
    with qtbot.waitSignal(dlg.import_finished, timeout=60000):
        dlg.do_import()
    problems = _problems(dlg)
    assert len(problems) == 2 and all("unknown id" in p for p in problems)
    assert repo.counts(small_ws) == before


def test_good_corpus_imports(qtbot, small_ws, tmp_path):
    good = tmp_path / "tiny.tsv"
    good.write_text("id\tsource\treference\n1\thello\tallo\n2\tbye\tbye-bye\n", encoding="utf-8")
    dlg = ImportDialog(small_ws, "corpus")
    qtbot.addWidget(dlg)
    dlg.set_path(good)
    assert dlg.preview.rowCount() == 2 and dlg.preview.columnCount() == 3
    dlg.id_edit.setText("tiny")
    dlg.src_edit.setText("eng")
    dlg.tgt_edit.setText("fra")
    with qtbot.waitSignal(dlg.import_finished, timeout=60000):
        dlg.do_import()
    assert dlg.result() == 1
    assert "tiny" in dlg.result_summary
    assert repo.get_corpus_info(small_ws, "tiny")["entry_count"] == 2


def test_drop_a_file(qtbot, small_ws, tmp_path):
    f = tmp_path / "g.json"
    f.write_text('{"dog": ["atim"]}', encoding="utf-8")
    dlg = ImportDialog(small_ws, "glossary")
    qtbot.addWidget(dlg)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f))])
    event = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    dlg.dropEvent(event)
    assert dlg.path_edit.text() == str(f)
    assert dlg.import_button.isEnabled()


@pytest.mark.shared_data
def test_install_analyzer(qtbot, small_ws, shared_data, tmp_path, monkeypatch):

    from mteval_gui.fst import find_analyzer

    source = shared_data / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    if not source.exists():
        pytest.skip("shared analyzer missing")
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "analyzers"))
    dlg = ImportDialog(small_ws, "analyzer")
    qtbot.addWidget(dlg)
    dlg.lang_combo.setCurrentIndex(dlg.lang_combo.findData("crk"))
    dlg.set_path(source)
    assert dlg.import_button.isEnabled()
    with qtbot.waitSignal(dlg.import_finished, timeout=60000):
        dlg.do_import()
    assert dlg.imported is not None and dlg.imported.lang == "crk"
    assert find_analyzer(None, "strict", lang="crk") is not None
    assert "installed strict" in " ".join(_problems(dlg))  # what was installed is listed before closing
    # in the text colour (it is what was done, not a warning), with Close as the one button left
    from PySide6.QtWidgets import QDialogButtonBox

    assert all(dlg.problems.item(i).foreground().style() == Qt.BrushStyle.NoBrush for i in range(dlg.problems.count()))
    assert dlg.import_button.text() == "Close"
    assert dlg.buttons.button(QDialogButtonBox.StandardButton.Cancel).isHidden()


def test_a_registered_format_is_in_the_format_list_and_the_file_filter(qtbot, small_ws, tmp_path, monkeypatch):
    from mteval_gui.qt import import_dialog
    from tests.io.toy_format import toy_registered

    f = tmp_path / "pairs.psv"
    f.write_text("id|source|reference\n1|bonjour|woezɔ\n", encoding="utf-8")
    seen: list[str] = []
    monkeypatch.setattr(import_dialog.file_dialogs, "open_file_name",
                        lambda parent, caption, directory, filters: (seen.append(filters), (str(f), ""))[1])
    with toy_registered():
        dlg = ImportDialog(small_ws, "corpus")
        qtbot.addWidget(dlg)
        combo = [dlg.format_combo.itemData(i) for i in range(dlg.format_combo.count())]
        assert combo == [None, "jsonl", "harness-report", "json", "tsv", "csv", "psv", "psv-report", "text"]
        dlg.browse()
        assert seen == ["Data files (*.jsonl *.ndjson *.json *.tsv *.tab *.csv *.psv *.psvr *.txt);;All files (*)"]
        assert dlg.summary.text() == "Format psv, looks like a corpus; 1 records. First rows:"
        run_dlg = ImportDialog(small_ws, "run")
        qtbot.addWidget(run_dlg)
        assert "psv" not in [run_dlg.format_combo.itemData(i) for i in range(run_dlg.format_combo.count())]


def _corpus_without_languages(tmp_path):
    path = tmp_path / "nolang.jsonl"
    path.write_text('{"id": "1", "source": "hello", "reference": "allo"}\n{"id": "1", "source": "bye"}\n',
                    encoding="utf-8")
    return path


def _rejected_corpus(qtbot, ws, tmp_path):
    """The dialog after importing a corpus file that names no languages and repeats an id."""
    bad = _corpus_without_languages(tmp_path)
    dlg = ImportDialog(ws, "corpus")
    qtbot.addWidget(dlg)
    dlg.set_path(bad)
    with qtbot.waitSignal(dlg.import_finished, timeout=60000):
        dlg.do_import()
    return bad, dlg


def test_defects_name_the_dialog_fields_not_command_line_options(qtbot, small_ws, tmp_path):
    bad, dlg = _rejected_corpus(qtbot, small_ws, tmp_path)
    problems = _problems(dlg)
    assert f"{bad}: the file does not say which languages it holds: give “Source language” and " \
           "“Target language”" in problems
    assert not any("--" in p for p in problems)
    # long messages wrap instead of being cut, and the whole text is the item's tooltip
    assert dlg.problems.wordWrap() and dlg.problems_label.wordWrap()
    assert all(dlg.problems.item(i).toolTip() == dlg.problems.item(i).text() for i in range(dlg.problems.count()))


def test_defects_are_in_french_in_the_french_interface(french, qtbot, small_ws, tmp_path, monkeypatch):
    from mteval_gui.qt import labels

    monkeypatch.setattr(labels, "interface_language", lambda: "fr")
    bad, dlg = _rejected_corpus(qtbot, small_ws, tmp_path)
    problems = _problems(dlg)
    assert f"{bad}: le fichier ne dit pas quelles langues il contient : indiquez « Langue source » et " \
           "« Langue cible »" in problems
    assert f"{bad}:2: identifiant '1' en double (déjà à la ligne 1)" in problems


def test_a_run_import_proposes_the_only_corpus_then_the_last_chosen(qtbot, small_ws, tmp_path, monkeypatch):
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair

    monkeypatch.setattr(ImportDialog, "last_run_corpus", {})
    dlg = ImportDialog(small_ws, "run")
    qtbot.addWidget(dlg)
    assert dlg.corpus_combo.currentData() == "mini"  # the workspace's only corpus
    repo.add_corpus(small_ws, Corpus(corpus_id="other", language_pair=LanguagePair(source="eng", target="crk"),
                                     entries=[Entry(id="1", source="a", reference="b")]))
    two = ImportDialog(small_ws, "run")
    qtbot.addWidget(two)
    assert two.corpus_combo.currentData() is None  # two corpora, none chosen yet: the file's own
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("b\n", encoding="utf-8")
    two.corpus_combo.setCurrentIndex(two.corpus_combo.findData("other"))
    two.set_path(hyp)
    with qtbot.waitSignal(two.import_finished, timeout=60000):
        two.do_import()
    again = ImportDialog(small_ws, "run")
    qtbot.addWidget(again)
    assert again.corpus_combo.currentData() == "other"  # remembered
