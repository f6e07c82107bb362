"""Reference-side statistics are computed once per corpus version and reused across runs."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.scoring import corpus_side
from mteval_gui.scoring.runner import score_run
from tests.scoring.test_runner import _corpus, _request, _run

METRICS = ["core.chrf", "core.bleu", "core.ter", "core.code_switching"]


@pytest.fixture(autouse=True)
def _fresh_stores():
    corpus_side.clear()
    yield
    corpus_side.clear()


def _store():
    (key,) = corpus_side.cached_versions()
    return corpus_side.corpus_side(*key)


def test_a_second_run_on_the_same_corpus_version_computes_nothing_on_the_reference_side():
    first = score_run(_request(include=METRICS, corpus_sha256="v1"))
    store = _store()
    assert store.version_key == "v1"
    assert store.computed == 4 * 40  # chrF++, BLEU, TER and the reference scripts/words of 40 entries
    second = score_run(_request(include=METRICS, corpus_sha256="v1", run=_run(drop=5)))
    assert _store() is store and store.computed == 4 * 40  # all reused
    corpus_side.clear()
    fresh = score_run(_request(include=METRICS, corpus_sha256="v1", run=_run(drop=5)))
    for key in ("chrf_plus_plus", "bleu", "ter", "code_switching_rate"):
        assert getattr(second.run_card.scores, key) == getattr(fresh.run_card.scores, key)
    assert first.run_card.scores.chrf_plus_plus != second.run_card.scores.chrf_plus_plus


def test_a_new_corpus_version_replaces_the_old_statistics():
    score_run(_request(include=METRICS, corpus_sha256="v1"))
    old = _store()
    changed = _corpus()
    changed.entries = [e.model_copy(update={"reference": f"Un chat {i} assis sur le tapis"})
                       for i, e in enumerate(changed.entries)]
    res = score_run(_request(include=METRICS, corpus=changed, corpus_sha256="v2"))
    assert corpus_side.cached_versions() == [("toy", "v2")]  # v1 dropped, not kept beside it
    assert _store() is not old and _store().computed == 4 * 40
    hyps = [o.predicted for o in _run().outputs]
    refs = [[e.reference for e in changed.entries]]
    assert res.run_card.scores.chrf_plus_plus == pytest.approx(CHRF(word_order=2).corpus_score(hyps, refs).score,
                                                               abs=1e-9)
    assert res.run_card.scores.bleu == pytest.approx(BLEU().corpus_score(hyps, refs).score, abs=1e-9)
    assert res.run_card.scores.ter == pytest.approx(TER().corpus_score(hyps, refs).score, abs=1e-9)


def test_changed_references_under_the_same_key_are_recomputed():
    store = corpus_side.corpus_side("c", "same")
    assert store.get("ns", "e1", ("ref a",), lambda: 1) == 1
    assert store.get("ns", "e1", ("ref a",), lambda: 2) == 1
    assert store.get("ns", "e1", ("ref b",), lambda: 3) == 3
    assert store.computed == 2


def test_without_a_corpus_hash_the_content_is_the_version():
    a = Corpus(corpus_id="k", language_pair=LanguagePair(source="eng", target="fra"),
               entries=[Entry(id="1", source="s", reference="r")])
    b = a.model_copy(deep=True)
    b.entries[0].reference = "r2"
    assert corpus_side.content_key(a.entries) == corpus_side.content_key(a.model_copy(deep=True).entries)
    assert corpus_side.content_key(a.entries) != corpus_side.content_key(b.entries)
    score_run(_request(include=["core.chrf"], corpus_sha256=None))
    ((cid, key),) = corpus_side.cached_versions()
    assert cid == "toy" and key == corpus_side.content_key(_corpus().entries)


def test_at_most_max_versions_are_kept():
    for i in range(corpus_side.MAX_VERSIONS + 2):
        corpus_side.corpus_side(f"c{i}", "v")
    assert corpus_side.cached_versions() == [(f"c{i}", "v") for i in range(2, corpus_side.MAX_VERSIONS + 2)]
