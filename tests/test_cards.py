"""Language cards: the bundled cards are valid; broken cards are reported, never raised."""

from __future__ import annotations

import hashlib
import json

import pytest

from mteval_gui import cards
from mteval_gui.errors import CardError
from mteval_gui.text import apply_folds


def test_bundled_cards_are_valid():
    assert cards.validate_all() == []
    assert {"crk", "ewe", "sme", "cym", "eng", "fra"} <= set(cards.card_codes())


def test_crk_card_declares_analyzers_and_folds():
    c = cards.load_card("crk")
    assert c.analyzers is not None
    assert c.analyzers.strict == "crk-strict-analyzer-for-dictionary.hfstol"
    assert c.analyzers.descriptive == "crk-descriptive-analyzer.hfstol"
    assert c.analyzers.generator == "crk-strict-generator.hfstol"
    assert c.analyzers.source_format == "deb"
    assert c.analyzers.source_url.endswith(".deb")
    assert apply_folds("nipāw", c.orthography.folds) == "nipâw"
    assert c.metric_model_support["comet"].covered is False


def test_ewe_card_folds_lookalikes_and_uses_africomet():
    c = cards.load_card("ewe")
    folds = c.orthography.folds
    assert (
        apply_folds("\u00d0e \u0110e \u00f0e \u0111e \u028ae \u0251", folds)
        == "\u0189e \u0189e \u0256e \u0256e \u028be a"
    )
    assert c.metric_model_support["comet"].model == "masakhane/africomet-mtl"
    assert c.metric_model_support["comet"].covered is True


def test_card_sha256_is_file_hash():
    path = cards.cards_dir() / "ewe.json"
    assert cards.load_card_sha256("ewe") == hashlib.sha256(path.read_bytes()).hexdigest()


def test_missing_card_raises_card_error(tmp_path):
    with pytest.raises(CardError):
        cards.load_card("xxx", tmp_path)
    assert cards.try_load_card("xxx", tmp_path) is None


def _write(d, name, obj):
    text = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False)
    (d / name).write_text(text, encoding="utf-8")


def test_validate_all_reports_every_problem_of_every_card(tmp_path, monkeypatch):
    good = json.loads((cards.cards_dir() / "eng.json").read_text(encoding="utf-8"))
    _write(tmp_path, "eng.json", good)
    _write(tmp_path, "bad.json", '{"code": "bad", "name": "x",\n "scripts": [}')
    _write(tmp_path, "abc.json", {
        "code": "xyz", "name": "Test",
        "scripts": ["latin"],
        "orthography": {"alphabet": "ab", "rules": [{"pattern": "([", "message": "m"}],
                        "lookalikes": {"c": "q"}},
        "evalMetrics": [{"id": "nodot", "python_name": "no colon"}],
        "analyzers": {"strict": "dir/a.hfstol", "source_format": "zip", "source_url": "ftp://x"},
    })
    _write(tmp_path, "typo.json", {"code": "typ", "name": "T", "hasCse": True})
    monkeypatch.setenv(cards.CARDS_DIR_ENV, str(tmp_path))
    problems = cards.validate_all()
    assert "bad.json: line 2 column 14: invalid JSON: Expecting value" in problems
    abc = [p for p in problems if p.startswith("abc.json: ")]
    joined = "\n".join(abc)
    assert "does not match the file name 'abc'.json" in joined
    assert "scripts: 'latin' is not an ISO 15924 code" in joined
    assert "orthography.rules[0].pattern: invalid regular expression" in joined
    assert "target 'q' of 'c' is not in the alphabet" in joined
    assert "evalMetrics[0].id: 'nodot'" in joined
    assert "evalMetrics[0].python_name: 'no colon'" in joined
    assert "analyzers.strict: 'dir/a.hfstol' must be a plain file name" in joined
    assert "analyzers.source_format: 'zip'" in joined
    assert "analyzers.source_url: 'ftp://x'" in joined
    assert len(abc) == 9
    assert any(p.startswith("typo.json: hasCse: Extra inputs are not permitted") for p in problems)
    assert not any(p.startswith("eng.json") for p in problems)
    # the good card still loads; broken ones raise CardError listing their problems
    assert cards.load_card("eng").code == "eng"
    with pytest.raises(CardError) as ei:
        cards.load_card("abc")
    assert len(ei.value.problems) == 9
