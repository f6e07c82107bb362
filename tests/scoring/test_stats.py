"""Vectorised statistics: finalisers equal sacrebleu, bootstrap and paired tests behave."""

from __future__ import annotations

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

from mteval_gui.scoring.stats import (
    EntryStats,
    Quantity,
    bleu_from_sums,
    bootstrap_ci,
    bootstrap_values,
    by_group_ci,
    chrf_from_sums,
    holm,
    paired_test,
    resample_weights,
    ter_from_sums,
)

HYPS = ["the cat sat on the mat", "a dog barks loudly", "", "hello world", "completely different output here",
        "the cat", "dogs bark", "x"]
REFS = ["the cat is on the mat", "the dog barks loudly", "nothing here", "hello there world",
        "an entirely unrelated reference", "the cat sat", "a dog barked", "why"]


def _stats(metric, hyps=HYPS, refs=REFS):
    return metric._extract_corpus_statistics(hyps, [refs])


def test_chrf_finaliser_equals_sacrebleu_corpus_and_sentence():
    m = CHRF(word_order=2)
    st = np.array(_stats(m), dtype=float)
    corpus = m.corpus_score(HYPS, [REFS]).score
    assert chrf_from_sums(st.sum(0, keepdims=True))[0] == pytest.approx(corpus, abs=1e-12)
    sent = chrf_from_sums(st)
    for i, (h, r) in enumerate(zip(HYPS, REFS, strict=True)):
        assert sent[i] == pytest.approx(m.sentence_score(h, [r]).score, abs=1e-12)


def test_chrf_eps_smoothing_variant_equals_sacrebleu():
    m = CHRF(word_order=2, eps_smoothing=True)
    st = np.array(_stats(m), dtype=float)
    assert chrf_from_sums(st.sum(0, keepdims=True), eps_smoothing=True)[0] == pytest.approx(
        m.corpus_score(HYPS, [REFS]).score, abs=1e-12)


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_bleu_finaliser_equals_sacrebleu(smooth):
    m = BLEU(smooth_method=smooth)
    st = np.array(_stats(m), dtype=float)
    got = bleu_from_sums(st.sum(0, keepdims=True), smooth_method=smooth)[0]
    assert got == pytest.approx(m.corpus_score(HYPS, [REFS]).score, abs=1e-9)


def test_sentence_bleu_effective_order_equals_sacrebleu():
    m = BLEU(effective_order=True)
    st = np.array(_stats(m), dtype=float)
    got = bleu_from_sums(st, effective_order=True)
    for i, (h, r) in enumerate(zip(HYPS, REFS, strict=True)):
        assert got[i] == pytest.approx(m.sentence_score(h, [r]).score, abs=1e-9)


def test_bleu_without_any_match_is_zero():
    assert bleu_from_sums(np.array([[3, 4, 0, 0, 0, 0, 3, 2, 1, 0]]))[0] == 0.0


def test_ter_finaliser_equals_sacrebleu_and_edge_cases():
    m = TER()
    st = np.array(_stats(m), dtype=float)
    assert ter_from_sums(st.sum(0, keepdims=True))[0] == pytest.approx(m.corpus_score(HYPS, [REFS]).score, abs=1e-12)
    assert list(ter_from_sums(np.array([[3.0, 0.0], [0.0, 0.0]]))) == [100.0, 0.0]


def test_mean_and_ratio_points():
    assert EntryStats.mean([1.0, None, 0.0, 0.5]).point() == pytest.approx(0.5)
    assert EntryStats.mean([None, None]).point() is None
    assert EntryStats.ratio([1, 2, 0], [2, 2, 0]).point() == pytest.approx(0.75)
    assert EntryStats.mean([1.0, None, 0.0]).entries_scored() == 2


def test_resample_weights_are_counts_of_n_draws():
    w = resample_weights(np.random.default_rng(1), 7, 13)
    assert w.shape == (7, 13)
    assert (w.sum(axis=1) == 13).all()
    assert (w >= 0).all()


def test_bootstrap_point_equals_corpus_value_and_is_reproducible():
    m = CHRF(word_order=2)
    st = EntryStats.rows("chrf", _stats(m), 24, char_order=6, word_order=2, beta=2, eps_smoothing=False)
    ci = bootstrap_ci(st, n_bootstrap=200, seed=7)
    assert ci.score == pytest.approx(m.corpus_score(HYPS, [REFS]).score, abs=1e-12)
    assert ci.ci_lower <= ci.score <= ci.ci_upper
    again = bootstrap_ci(st, n_bootstrap=200, seed=7)
    assert (again.ci_lower, again.ci_upper) == (ci.ci_lower, ci.ci_upper)
    assert (ci.n_bootstrap, ci.confidence_level, ci.seed, ci.n_entries) == (200, 0.95, 7, 8)


def test_bootstrap_percentiles_match_numpy_on_the_same_resamples():
    vals = np.array([0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0])
    st = EntryStats.mean(list(vals))
    boots = bootstrap_values(st, n_bootstrap=500, seed=3)
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 10, size=(500, 10))
    expected = vals[idx].mean(axis=1)
    assert np.allclose(boots, expected)
    ci = bootstrap_ci(st, n_bootstrap=500, seed=3)
    lo, hi = np.percentile(expected, [2.5, 97.5])
    assert ci.ci_lower == pytest.approx(lo) and ci.ci_upper == pytest.approx(hi)


def test_constant_values_have_a_degenerate_interval():
    ci = bootstrap_ci(EntryStats.mean([0.4] * 12), n_bootstrap=100, seed=1)
    assert ci.ci_lower == pytest.approx(0.4) and ci.ci_upper == pytest.approx(0.4)


def test_identical_runs_give_p_one():
    st = EntryStats.mean([0.1, 0.9, 0.5, 0.3, 0.7, 0.2])
    for test in ("ar", "bootstrap"):
        r = paired_test(st, st, test=test, trials=300, seed=5)
        assert r.p_value == 1.0
        assert r.delta == 0.0
        assert r.ci_lower == 0.0 and r.ci_upper == 0.0


def test_clearly_better_system_gets_the_smallest_p():
    a = EntryStats.mean([0.0] * 40)
    b = EntryStats.mean([1.0] * 40)
    for test in ("ar", "bootstrap"):
        r = paired_test(a, b, test=test, trials=999, seed=2)
        assert r.p_value == pytest.approx(1 / 1000)
        assert r.delta == 1.0
        assert r.ci_lower == 1.0 and r.ci_upper == 1.0


def test_paired_test_on_chrf_statistics():
    m = CHRF(word_order=2)
    base = EntryStats.rows("chrf", _stats(m, HYPS, REFS), 24, char_order=6, word_order=2, beta=2, eps_smoothing=False)
    sysb = EntryStats.rows("chrf", _stats(m, REFS, REFS), 24, char_order=6, word_order=2, beta=2, eps_smoothing=False)
    r = paired_test(base, sysb, trials=500, seed=1)
    assert r.system_score == pytest.approx(100.0)
    assert r.baseline_score == pytest.approx(m.corpus_score(HYPS, [REFS]).score)
    assert r.delta == pytest.approx(100.0 - r.baseline_score)
    assert 0 < r.p_value <= 1
    assert r.ci_lower <= r.delta <= r.ci_upper


def test_paired_test_needs_aligned_entries():
    with pytest.raises(ValueError):
        paired_test(EntryStats.mean([1.0, 0.0]), EntryStats.mean([1.0]))


def test_holm_adjustment_by_hand():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, None, 0.9]) == [1.0, None, 1.0]


def test_holm_is_monotone_and_capped():
    adj = holm([0.2, 0.01, 0.02, 0.5])
    # sorted: 0.01*4=0.04, 0.02*3=0.06, 0.2*2=0.4, 0.5*1=0.5
    assert adj == pytest.approx([0.4, 0.04, 0.06, 0.5])


def test_by_group_ci_needs_five_entries_and_flags_small_groups():
    vals = [1.0, 0.0] * 20 + [1.0] * 4
    groups = [1] * 40 + [2] * 4
    out = by_group_ci(EntryStats.mean(vals), groups, n_bootstrap=100, seed=1)
    assert set(out) == {"1"}
    assert out["1"].n_entries == 40 and out["1"].unreliable is False
    small = by_group_ci(EntryStats.mean([1.0, 0.0] * 5), [3] * 10, n_bootstrap=50, seed=1)
    assert small["3"].unreliable is True and small["3"].score == pytest.approx(0.5)


def test_quantity_combines_components():
    q = Quantity({"a": EntryStats.mean([1.0, 0.0]), "b": EntryStats.mean([1.0, 1.0])},
                 lambda v: (v["a"] + v["b"]) / 2)
    assert q.point() == pytest.approx(0.75)
    with pytest.raises(ValueError):
        Quantity({"a": EntryStats.mean([1.0]), "b": EntryStats.mean([1.0, 0.0])})


def test_paired_test_with_given_resamples_equals_resampling_the_pair():
    import numpy as np

    from mteval_gui.scoring.stats import EntryStats, bootstrap_values, compare_many, paired_test

    rng = np.random.default_rng(5)
    a = EntryStats.mean(list(rng.random(80)))
    b = EntryStats.mean(list(rng.random(80)))
    for test in ("ar", "bootstrap"):
        plain = paired_test(a, b, test=test, trials=200, seed=9)
        deltas = bootstrap_values(b, n_bootstrap=200, seed=9) - bootstrap_values(a, n_bootstrap=200, seed=9)
        given = paired_test(a, b, test=test, trials=200, seed=9, deltas=deltas)
        assert given.as_dict() == plain.as_dict()
    many = compare_many({"m": a}, {"s": {"m": b}}, trials=200, seed=9, holm_correction=True,
                        resampled={"s": {"m": bootstrap_values(b, n_bootstrap=200, seed=9)}},
                        baseline_resampled={"m": bootstrap_values(a, n_bootstrap=200, seed=9)})
    assert many["s"]["m"].p_value == paired_test(a, b, trials=200, seed=9).p_value
    assert many["s"]["m"].p_adjusted == many["s"]["m"].p_value


def test_resamples_drawn_ahead_are_those_the_intervals_use(monkeypatch):
    from mteval_gui.scoring import stats

    monkeypatch.setattr(stats, "_weight_cache", stats.OrderedDict())
    fresh = [w.copy() for w in stats.weight_chunks("bootstrap", None, 200, 37)]  # seed None: never cached
    stats.draw_weights("bootstrap", 5, 200, 37)
    assert ("bootstrap", 5, 200, 37) in stats._weight_cache
    calls = []
    monkeypatch.setattr(stats, "resample_weights", lambda *a: calls.append(a))  # drawn again: would fail
    again = list(stats.weight_chunks("bootstrap", 5, 200, 37))
    assert calls == []
    rng_same = list(stats.weight_chunks("bootstrap", 5, 200, 37))
    assert all((a == b).all() for a, b in zip(again, rng_same, strict=True))
    assert sum(w.shape[0] for w in again) == 200 and again[0].shape[1] == 37
    assert (again[0].sum(axis=1) == 37).all()  # each resample draws 37 entries
    assert not all((a == b).all() for a, b in zip(again, fresh, strict=False))  # another seed, other draws


def test_the_scoring_process_draws_the_interval_resamples_while_the_helper_scores(monkeypatch):
    from mteval_gui.scoring import parallel, runner

    if not parallel.can_fork():
        pytest.skip("needs os.fork")
    drawn = []
    real = runner.draw_weights
    monkeypatch.setattr(runner, "draw_weights", lambda *a: (drawn.append(a), real(*a)))
    from tests.scoring.test_runner import _request

    res = runner.score_run(_request(batch_size=4, workers=2, seed=11, n_bootstrap=300))
    assert drawn == [("bootstrap", 11, 300, 40)]
    serial = runner.score_run(_request(batch_size=4, seed=11, n_bootstrap=300))
    assert res.run_card.scores.chrf_ci_lower == serial.run_card.scores.chrf_ci_lower


def test_resamples_that_would_not_be_cached_are_not_drawn_ahead(monkeypatch):
    from mteval_gui.scoring import stats

    calls = []
    monkeypatch.setattr(stats, "resample_weights", lambda *a: calls.append(a))
    stats.draw_weights("bootstrap", None, 200, 37)  # no seed: never cached
    stats.draw_weights("bootstrap", 5, 1000, stats._CACHE_CELLS // 1000 + 1)  # too large to keep
    assert calls == []
