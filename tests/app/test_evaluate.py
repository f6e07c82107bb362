"""One-shot evaluation (``app.evaluate``): the run card the runner checked is written as it is;
a card changed after scoring is checked again before it is written."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from mteval_gui.app.evaluate import EvaluationInputs, evaluate_files
from mteval_gui.app.overrides import ScoringOverrides
from mteval_gui.scoring.runcard import RunCardInvalid, run_card_json


def _evaluate(tmp_path: Path):
    (tmp_path / "src.txt").write_text("Bonjour le monde.\nMerci beaucoup.\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("Woezɔ na xexeame.\nAkpe kakaka.\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("Woezɔ na xexeame.\nAkpe.\n", encoding="utf-8")
    return evaluate_files(EvaluationInputs(tmp_path / "src.txt", tmp_path / "hyp.txt", ref=tmp_path / "ref.txt",
                                           source_lang="fra", target_lang="ewe"),
                          ScoringOverrides.of(metrics=["core.exact", "core.chrf"]), workers=1)


def test_the_card_the_runner_checked_is_written_as_it_is(tmp_path):
    ev = _evaluate(tmp_path)
    # results[] are held once, in the JSON form the runner checked; the model has none
    assert ev.result.run_card.results == []
    assert [r["entry_id"] for r in ev.checked["results"]] == ["1", "2"]
    assert ev.checked == {**ev.result.run_card.model_dump(mode="json"), "results": ev.checked["results"]}
    path = ev.save(tmp_path / "out" / "card.json")
    assert path.read_text(encoding="utf-8") == run_card_json(ev.checked)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["scores"]["exact_match_rate"] == 0.5
    assert [r["predicted"] for r in written["results"]] == ["Woezɔ na xexeame.", "Akpe."]


def test_a_card_changed_after_scoring_is_written_with_its_results(tmp_path):
    ev = _evaluate(tmp_path)
    ev.result.run_card.model_slug = "renamed"
    written = json.loads(ev.save(tmp_path / "card.json").read_text(encoding="utf-8"))
    assert written["model_slug"] == "renamed"
    assert written["results"] == ev.checked["results"] and len(written["results"]) == 2


def test_a_card_changed_after_scoring_is_checked_again(tmp_path):
    ev = _evaluate(tmp_path)
    ev.result.run_card.run_id = 5  # type: ignore[assignment]  # not a string: the card no longer conforms
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic warns when it serialises the wrong type
        with pytest.raises(RunCardInvalid, match="run_id"):
            ev.save(tmp_path / "card.json")
    assert not (tmp_path / "card.json").exists()


def test_the_scoring_choices_are_one_parameter_object(tmp_path):
    _evaluate(tmp_path)  # writes the files
    inputs = EvaluationInputs(tmp_path / "src.txt", tmp_path / "hyp.txt", ref=tmp_path / "ref.txt",
                              source_lang="fra", target_lang="ewe")
    ev = evaluate_files(inputs, ScoringOverrides.of(metrics=["core.exact"], seed=3, n_bootstrap=17), workers=1)
    ci = ev.result.run_card.model_dump(mode="json")["scores"]["confidence_intervals"]["exact_match_rate"]
    assert (ci["seed"], ci["n_bootstrap"]) == (3, 17)
    assert ev.inputs == [tmp_path / "src.txt", tmp_path / "hyp.txt", tmp_path / "ref.txt"]
    with pytest.raises(ValueError, match="EvaluationInputs.glossary"):
        evaluate_files(inputs, ScoringOverrides.of(glossary="terms"))


def test_an_evaluation_never_holds_the_files_as_models(tmp_path, monkeypatch):
    from mteval_gui.app import evaluate
    from mteval_gui.domain.packed import PACK_CHUNK, Packed

    n = 3 * PACK_CHUNK + 1
    (tmp_path / "src.txt").write_text("".join(f"Bonjour {i}.\n" for i in range(n)), encoding="utf-8")
    (tmp_path / "ref.txt").write_text("".join(f"Woezɔ {i}.\n" for i in range(n)), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("".join(f"Woezɔ {i % 3}.\n" for i in range(n)), encoding="utf-8")
    read: list = []
    for name in ("read_corpus", "read_run"):
        real = getattr(evaluate, name)

        def spy(*args, _real=real, **kwargs):
            loaded = _real(*args, **kwargs)
            read.append(loaded.value)
            return loaded

        monkeypatch.setattr(evaluate, name, spy)
    ev = evaluate_files(EvaluationInputs(tmp_path / "src.txt", tmp_path / "hyp.txt", ref=tmp_path / "ref.txt",
                                         source_lang="fra", target_lang="ewe"),
                        ScoringOverrides.of(metrics=["core.exact"]), workers=1)
    corpus, run = read
    # read into their packed form: never more than one chunk of models held while reading
    assert isinstance(corpus.entries, Packed) and isinstance(run.outputs, Packed)
    assert corpus.entries.most_open == run.outputs.most_open == PACK_CHUNK
    assert len(corpus.entries) == len(run.outputs) == 193
    assert ev.missing == []
    results = ev.checked["results"]
    assert [r["metrics"]["core.exact"] for r in results[:4]] == [1.0, 1.0, 1.0, 0.0]
    assert [(r["entry_id"], r["predicted"]) for r in results[190:]] == [("191", "Woezɔ 1."), ("192", "Woezɔ 2."),
                                                                        ("193", "Woezɔ 0.")]
