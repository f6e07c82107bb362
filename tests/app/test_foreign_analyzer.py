"""An analyzer of another language is never applied silently: its card pins its sha256, so
`evaluate --analyzer` refuses it and a workspace run scored with it gets its FST metrics
unavailable with the reason (profile B), never another language's acceptance rate."""

from __future__ import annotations

import json

import pytest

from mteval_gui.app.analyzer_pins import foreign_analyzer, pinned_by
from mteval_gui.cli import main
from mteval_gui.domain.settings import ScoringOptions
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.shared_data
CRK = SHARED_DATA / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
MAFAND = SHARED_DATA / "ewe" / "mafand-fr-ewe"
REASON = ("the analyzer given is the crk analyzer (the crk language card pins its sha256), not one for ewe; "
          "the FST metrics need an analyzer of ewe")


def _files(tmp_path):
    names = {"src.txt": MAFAND / "test.fr", "ref.txt": MAFAND / "test.ewe",
             "hyp.txt": MAFAND / "predictions" / "m2m100_fr_ewe_rel_news_newsft.txt"}
    for name, source in names.items():
        (tmp_path / name).write_text("\n".join(source.read_text("utf-8").split("\n")[:12]) + "\n", encoding="utf-8")
    return tmp_path / "src.txt", tmp_path / "ref.txt", tmp_path / "hyp.txt"


def test_the_cards_say_whose_analyzer_a_file_is():
    assert pinned_by(CRK) == {"crk": "strict"}
    assert foreign_analyzer(ScoringOptions(analyzer_path=str(CRK)), "crk") is None
    assert foreign_analyzer(ScoringOptions(analyzer_path=str(CRK)), "ewe") == (str(CRK), REASON)
    assert foreign_analyzer(ScoringOptions(), "ewe") is None


def test_evaluate_refuses_another_languages_analyzer(tmp_path, capsys):
    src, ref, hyp = _files(tmp_path)
    out = tmp_path / "card.json"
    assert main(["evaluate", "--corpus", str(src), "--ref", str(ref), "--run", str(hyp), "--source-lang", "fra",
                 "--lang", "ewe", "--analyzer", str(CRK), "-o", str(out)]) == 2
    assert f"{CRK}: {REASON}" in capsys.readouterr().err
    assert not out.exists()


def test_a_workspace_run_scored_with_another_languages_analyzer_has_no_fst_values(tmp_path, capsys):
    src, ref, hyp = _files(tmp_path)
    db = str(tmp_path / "ws.sqlite")
    assert main(["--db", db, "import", "corpus", str(src), "--ref-file", str(ref), "--id", "m", "--source-lang", "fra",
                 "--target-lang", "ewe", "--format", "text"]) == 0
    assert main(["--db", db, "import", "run", str(hyp), "--corpus", "m", "--run-id", "r", "--format", "text"]) == 0
    assert main(["--db", db, "score", "--all", "--analyzer", str(CRK), "--bootstrap", "20"]) == 0
    assert main(["--db", db, "export", "runcard", "r", "-o", str(tmp_path / "r.json")]) == 0
    card = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert card["scores"]["fst_acceptance_rate"] is None and card["scores"]["morphological_accuracy"] is None
    assert card["metric_availability"]["core.fst"] == "unavailable"
    assert card["metric_reasons"]["core.fst"] == f"{CRK}: {REASON}"
    assert card["composite_profile"] == "B"
    assert [i["metric"] for i in card["composite_breakdown"]] and all(
        i["metric"] != "fst_acceptance_rate" for i in card["composite_breakdown"])
