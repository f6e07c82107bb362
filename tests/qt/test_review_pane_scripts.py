"""Review pane: the reference shown in the reviewer's script, remembered per language."""

from __future__ import annotations

from mteval_gui.app.entry_review import load_review_data
from mteval_gui.app.preferences import AppSettings
from mteval_gui.qt.review_pane import ReviewPane
from tests.app.pack_helpers import make_workspace


def test_the_reference_in_syllabics_and_the_diff_in_the_outputs_script(qtbot, tmp_path):
    ws = make_workspace(tmp_path / "ws.sqlite")
    data = load_review_data(ws, "c", "x-1", [("sys1", "system-one")])  # reference ninipân, output ᓂᓂᐹᐣ
    assert data.written_in == {"Latn": ["ninipân"], "Cans": ["ᓂᓂᐹᐣ"]}
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.show_data(data)
    combo = pane.script_combo
    assert not combo.isHidden()
    assert [combo.itemText(i) for i in range(combo.count())] == ["as written", "Latin", "Canadian syllabics"]
    assert combo.currentData() is None
    text = pane.text.toPlainText()
    assert "Reference\nninipân\n" in text
    # the output is compared with the reference written in the output's own script: no difference
    assert "#f8d0d0" not in pane.text.toHtml() and "line-through" not in pane.text.toHtml()

    combo.setCurrentIndex(2)
    assert "Reference\nᓂᓂᐹᐣ\nninipân\n" in pane.text.toPlainText()
    assert AppSettings.load().reference_scripts == {"crk": "Cans"}
    other = ReviewPane()  # another pane (a new session) opens on the reviewer's script
    qtbot.addWidget(other)
    other.show_data(load_review_data(ws, "c", "d1-1", [("sys1", "system-one")]))
    assert other.script_combo.currentData() == "Cans"
    assert "Reference\nᓂᑎᑤᐣ\nnititwân\n" in other.text.toPlainText()
    other.set_blind(True)
    assert other.script_combo.isHidden() and "ᓂᑎᑤᐣ" not in other.text.toPlainText()
    combo.setCurrentIndex(0)
    assert AppSettings.load().reference_scripts == {}
    ws.close()


def test_a_generator_that_cannot_be_used_says_why(qtbot, tmp_path):
    ws = make_workspace(tmp_path / "ws.sqlite")
    pane = ReviewPane()
    qtbot.addWidget(pane)
    pane.correction_suggester = lambda data, view: "the generator analyzer for crk cannot be used: not the pinned file"
    pane.show_data(load_review_data(ws, "c", "d1-2", [("sys1", "system-one")]))
    assert not pane.forms_title.isHidden() and pane.forms.isHidden()
    assert pane.forms_title.text() == ("Generator forms: the generator analyzer for crk cannot be used: "
                                       "not the pinned file")
    assert not pane.use_form(0)
    pane.correction_suggester = lambda data, view: None  # no generator installed: nothing shown
    pane.show_data(load_review_data(ws, "c", "d1-2", [("sys1", "system-one")]))
    assert pane.forms_title.isHidden() and pane.forms.isHidden()
    ws.close()
