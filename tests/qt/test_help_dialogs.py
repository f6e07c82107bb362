"""Help → Metric glossary and Data licences: every metric the app can run, explained from its own
declaration (a plugin's metric included), in English and French."""

from __future__ import annotations

from mteval_gui.app.metrics import metric_glossary
from mteval_gui.qt.help_dialogs import DataLicencesDialog, MetricGlossaryDialog, glossary_html, licences_html
from mteval_gui.qt.labels import BUNDLED_METRIC_DESCRIPTIONS
from tests.scoring.role_metrics import LINTER_ID, install_zzx_plugin, uninstall_zzx_plugin


def test_glossary_lists_every_bundled_metric_with_scale_direction_and_validation(qapp):
    entries = {e.descriptor.id: e for e in metric_glossary()}
    assert {"core.chrf", "core.bleu", "core.ter", "core.fst", "core.hallucination", "core.comet",
            "core.embedding_semantic", "crk.lint", "crk.semantic", "ewe.quality"} <= set(entries)
    assert entries["crk.lint"].languages == ("crk",) and entries["core.chrf"].languages == ()
    assert (entries["core.ter"].descriptor.higher_is_better, entries["core.ter"].descriptor.scale) == (False, "0-inf")
    assert entries["core.fst"].needs_fst and entries["core.chrf"].needs_reference
    html = glossary_html()
    assert "Character n-gram F-score with word bigrams" in html
    assert "0–100, higher is better" in html and "0 and up, lower is better" in html
    assert "language standard: crk" in html and "unvalidated" in html and "heuristic" in html
    assert html.count("<tr>") == len(entries) + 1


def test_every_bundled_description_has_a_french_translation(french):
    descriptions = {e.description for e in metric_glossary()}
    missing = descriptions - set(BUNDLED_METRIC_DESCRIPTIONS)
    assert not missing, f"add these to BUNDLED_METRIC_DESCRIPTIONS and translate them: {sorted(missing)}"
    html = glossary_html()
    assert "F-mesure sur les n-grammes de caractères avec bigrammes de mots" in html
    assert "0–100, plus haut est meilleur" in html and "norme de langue\u202f: crk" in html
    assert "Character n-gram F-score" not in html


def test_a_plugin_metric_appears_with_its_own_description(qapp, monkeypatch):
    install_zzx_plugin(monkeypatch)
    try:
        entries = {e.descriptor.id: e for e in metric_glossary()}
        assert LINTER_ID in entries and not entries[LINTER_ID].descriptor.builtin
        assert entries[LINTER_ID].description in glossary_html()
    finally:
        monkeypatch.undo()
        uninstall_zzx_plugin()


def test_licences_name_every_kind_of_data_and_the_dialogs_open(qtbot):
    html = licences_html()
    for needle in ("resources/demo", "eval_standards/crk/data", "eval_standards/ewe/data", "CC BY-NC 4.0",
                   "SIL Open Font License 1.1", "wmt22-comet-da: Apache-2.0", "OCAP"):
        assert needle in html
    for cls in (MetricGlossaryDialog, DataLicencesDialog):
        dlg = cls()
        qtbot.addWidget(dlg)
        assert dlg.browser.toPlainText().strip()
