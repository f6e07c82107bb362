"""A third-party plugin's message catalog: found through its declaration, used for its details."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app import messages
from mteval_gui.standards import discover_plugins
from tests.test_plugins import _ep, _module


@pytest.fixture
def kal_plugin(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    _module(tmp_path, "kal_msgs.plugin", 'PLUGIN = {"name": "kal_msgs", "packages": ["kal_msgs"], '
                                         '"messages": "messages"}\n')
    (tmp_path / "kal_msgs" / "messages").mkdir()
    (tmp_path / "kal_msgs" / "messages" / "fr.json").write_text(json.dumps(
        {"{n} words too many": "{n} mots de trop"}), encoding="utf-8")
    _module(tmp_path, "bad_msgs.plugin", 'PLUGIN = {"name": "bad_msgs", "packages": ["bad_msgs"], '
                                         '"messages": "nowhere"}\n')
    plugins = discover_plugins((_ep(n, f"{n}.plugin:PLUGIN"), None, None, False) for n in ("kal_msgs", "bad_msgs"))
    monkeypatch.setattr(messages, "installed_plugins", lambda: plugins)
    messages.clear_catalogs()
    yield plugins
    messages.clear_catalogs()


def test_a_plugins_catalog_translates_its_details(kal_plugin, tmp_path):
    assert kal_plugin.get("kal_msgs").messages_dir == tmp_path / "kal_msgs" / "messages"  # type: ignore[union-attr]
    assert [str(p) for p in kal_plugin.problems] == [
        "plugin bad_msgs: messages: folder 'nowhere' not found; its translations are not used"]
    detail = {"explanation": "2 words too many", "explanation_msg": {"template": "{n} words too many",
                                                                     "args": {"n": 2}}}
    assert messages.detail_text(detail, "explanation", "fr") == "2 mots de trop"
    assert messages.detail_text(detail, "explanation", "fr_CA") == "2 mots de trop"
    assert messages.detail_text(detail, "explanation", "en") == "2 words too many"
    assert messages.detail_text(detail, "explanation", "de") == "2 words too many"
    other = {"explanation": "3 letters", "explanation_msg": {"template": "{n} letters", "args": {"n": 3}}}
    assert messages.detail_text(other, "explanation", "fr") == "3 letters"  # not in the catalog: English


def test_the_applications_own_benchmark_lines_in_french():
    """The lines the core writes for a test (not run, no response, provider error, suite defect,
    empty response) were English in the French interface."""
    from eval_standards.ewe.bench.model import EweTest
    from mteval_gui.domain.benchmark import ResponseRecord
    from tests.benchmarks.helpers import EWEBENCH

    messages.clear_catalogs()
    test = EweTest(id="lc1", prompt="p", method="exact_match", category="linguistic_comprehension", expected="Ama")
    not_run = EWEBENCH.score_test(test, None, category_active=False).explanation
    missing = EWEBENCH.score_test(test, None).explanation
    failed = EWEBENCH.score_test(test, ResponseRecord(test_id="lc1", error="HTTP 503")).explanation
    assert messages.detail_text(not_run, "lines", "fr") == ["catégorie non jouée (aucune réponse à ses tests)"]
    assert messages.detail_text(missing, "lines", "fr") == ["aucune réponse à ce test : note 0"]
    assert messages.detail_text(failed, "lines", "fr") == ["erreur du fournisseur : HTTP 503",
                                                          "note 0 (non évaluée comme texte)"]
    assert messages.detail_text(failed, "lines", "en") == ["provider error: HTTP 503", "scored 0 (not scored as text)"]
    defect = EweTest(id="lc2", prompt="p", method="exact_match", category="linguistic_comprehension",
                     unscorable="exact_match test has no 'expected'")
    unscorable = EWEBENCH.score_test(defect, ResponseRecord(test_id="lc2", response="Ama")).explanation
    assert messages.detail_text(unscorable, "lines", "fr") == [
        "défaut de la suite : exact_match test has no 'expected'", "non évalué ; exclu de la moyenne de la catégorie"]
    empty = EWEBENCH.score_test(test, ResponseRecord(test_id="lc1", response="  ")).explanation
    assert messages.detail_text(empty, "lines", "fr")[0] == "réponse vide : note 0"
