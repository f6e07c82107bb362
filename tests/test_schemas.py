"""The shipped JSON Schemas are exactly what the models generate, and real files conform."""

from __future__ import annotations

import json

import pytest

from mteval_gui import schemas
from mteval_gui.paths import demo_dir, language_cards_dir, schemas_dir


@pytest.mark.parametrize("name", sorted(schemas.SCHEMAS))
def test_shipped_schema_is_up_to_date(name):
    shipped = (schemas_dir() / name).read_text(encoding="utf-8")
    assert shipped == schemas.render(name), f"run `python -m mteval_gui.schemas` to regenerate {name}"


def test_write_schemas_writes_every_file(tmp_path):
    written = schemas.write_schemas(tmp_path)
    assert sorted(p.name for p in written) == sorted(schemas.SCHEMAS)
    for p in written:
        doc = json.loads(p.read_text(encoding="utf-8"))
        assert doc["$schema"] == schemas.DRAFT
        assert doc["title"] == schemas.SCHEMAS[p.name][2]


def test_language_card_schema_uses_json_aliases():
    props = schemas.schema_of("language_card.json")["properties"]
    assert {"hasCase", "metricModelSupport", "evalMetrics"} <= set(props)
    assert "has_case" not in props


def test_bundled_files_conform_to_schemas():
    jsonschema = pytest.importorskip("jsonschema")
    card_schema = jsonschema.Draft202012Validator(schemas.schema_of("language_card.json"))
    for path in sorted(language_cards_dir().glob("*.json")):
        errors = [e.message for e in card_schema.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
        assert errors == [], path.name
    corpus_schema = jsonschema.Draft202012Validator(schemas.schema_of("corpus.json"))
    bad = {"corpus_id": "x", "language_pair": {"source": "eng"}, "entries": [{"id": "a"}]}
    messages = sorted(e.message for e in corpus_schema.iter_errors(bad))
    assert messages == ["'source' is a required property", "'target' is a required property"]
    from mteval_gui.io import read_corpus

    corpus = read_corpus(demo_dir() / "crk-verbs.jsonl").value
    assert list(corpus_schema.iter_errors(corpus.model_dump(mode="json"))) == []
