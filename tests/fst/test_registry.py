"""Finding installed analyzers and sharing them within one scoring job."""

from __future__ import annotations

from pathlib import Path

import pytest

from mteval_gui.domain.card import AnalyzerDecl, LanguageCard
from mteval_gui.fst import Analyzer, AnalyzerNotFound, find_analyzer, optional_shared_analyzer, shared_analyzer
from mteval_gui.fst.install import install_analyzer
from mteval_gui.scoring.plugins import ScoringContext
from tests.fst._support import build_tiny_hfstol


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return build_tiny_hfstol(tmp_path_factory.mktemp("src") / "tiny.hfstol")


CARD = LanguageCard(
    code="tst", name="Test", analyzers=AnalyzerDecl(strict="declared.hfstol", descriptive="desc.hfstol")
)


def test_lookup_order_explicit_manifest_declared(tiny, tmp_path, monkeypatch):
    base = tmp_path / "an"
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(base))
    assert find_analyzer(CARD, "strict") is None
    (base / "tst").mkdir(parents=True)
    declared = base / "tst" / "declared.hfstol"
    declared.write_bytes(tiny.read_bytes())
    assert find_analyzer(CARD, "strict") == declared
    install_analyzer("tst", tiny, card=CARD, kind="strict")
    assert find_analyzer(CARD, "strict") == base / "tst" / "tiny.hfstol"  # the manifest wins
    assert find_analyzer(CARD, "strict", path=declared) == declared  # an explicit path wins
    with pytest.raises(AnalyzerNotFound, match="does not exist"):
        find_analyzer(CARD, "strict", path=tmp_path / "nope.hfstol")
    assert find_analyzer(CARD, "descriptive") is None
    with pytest.raises(ValueError):
        find_analyzer(CARD, "tokeniser")


def test_shared_analyzer_is_loaded_once_per_job(tiny, tmp_path, monkeypatch):
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "an"))
    install_analyzer("tst", tiny, card=CARD)
    ctx = ScoringContext("eng", "tst", target_card=CARD)
    a = shared_analyzer(ctx)
    assert isinstance(a, Analyzer) and ctx.shared["fst.strict"] is a
    assert shared_analyzer(ctx) is a
    with pytest.raises(AnalyzerNotFound) as err:
        shared_analyzer(ctx, "descriptive")
    assert (
        str(err.value)
        == "no descriptive analyzer for tst: run `mteval analyzers install tst PATH_OR_URL --kind descriptive`"
    )
    assert ctx.shared["fst.descriptive"] is err.value  # the failure is remembered
    assert optional_shared_analyzer(ctx, "descriptive") is None


def test_missing_analyzer_message(tmp_path, monkeypatch):
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "empty"))
    ctx = ScoringContext("eng", "crk")
    with pytest.raises(AnalyzerNotFound) as err:
        shared_analyzer(ctx)
    assert str(err.value) == "no analyzer for crk: run `mteval analyzers install crk PATH_OR_URL`"


def test_analyzer_path_option_and_persistent_cache(tiny, tmp_path, monkeypatch):
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "empty"))
    caches: dict[str, dict] = {}
    ctx = ScoringContext("eng", "xyz", options={"analyzer_path": str(tiny),
                                                "fst_cache": lambda sha: caches.setdefault(sha, {})})
    a = shared_analyzer(ctx)
    assert a.path == tiny
    assert a.persistent_cache is caches[a.sha256]
    a.clear_cache()
    a.analyse("atim")
    assert caches[a.sha256]["atim"] == ["atim+N+A+Sg", "atimêw+V+TA+Imp+Imm+2Sg+3SgO"]
    bad = ScoringContext("eng", "xyz", options={"analyzer_path": str(tmp_path / "gone.hfstol")})
    with pytest.raises(AnalyzerNotFound, match="gone.hfstol does not exist"):
        shared_analyzer(bad)


def test_analyzers_dir_option(tiny, tmp_path, monkeypatch):
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(tmp_path / "default"))
    other = tmp_path / "workspace-folder"
    install_analyzer("tst", tiny, card=CARD, base=other)
    assert optional_shared_analyzer(ScoringContext("eng", "tst", target_card=CARD), "strict") is None
    ctx = ScoringContext("eng", "tst", target_card=CARD, options={"analyzers_dir": str(other)})
    assert shared_analyzer(ctx).path == other / "tst" / "tiny.hfstol"
