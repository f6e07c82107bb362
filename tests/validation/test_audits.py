"""Linter precision per variant class and FST false-rejection rate with Wilson intervals."""

from __future__ import annotations

import pytest

from mteval_gui.validation.audits import (
    ALL_CLASSES,
    UNCLASSIFIED,
    LinterAnswer,
    WordAnswer,
    fst_audit,
    linter_precision,
    pair_verdict,
    wilson_interval,
    word_verdict,
)


def test_wilson_interval_literal_values():
    assert wilson_interval(2, 10) == pytest.approx((0.0566822, 0.5098375), abs=1e-7)
    assert wilson_interval(81, 263) == pytest.approx((0.2552885, 0.3662096), abs=1e-7)  # Newcombe (1998)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775328), abs=1e-7)
    assert wilson_interval(10, 10) == pytest.approx((0.7224672, 1.0), abs=1e-7)
    assert wilson_interval(0, 0) == (None, None)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_pair_and_word_verdicts():
    assert pair_verdict(["Yes", "Yes", "No"]) == "confirmed"
    assert pair_verdict(["Yes", "Depends"]) == "undecided"
    assert pair_verdict(["No", "No", "Depends"]) == "refuted"
    assert pair_verdict([None]) == "undecided"
    assert word_verdict(["Yes", "Unsure", "No", "Yes"]) == "valid"
    assert word_verdict(["Yes", "No"]) == "unresolved"
    assert word_verdict(["Unsure"]) == "unresolved"
    assert word_verdict(["No"]) == "invalid"


def test_linter_precision_per_class():
    answers = [
        # pair 1 (macron): confirmed by 2 of 3
        LinterAnswer(("r1", "e1"), "a", ("LONG_VOWEL_MACRON",), "Yes", "Yes"),
        LinterAnswer(("r1", "e1"), "b", ("LONG_VOWEL_MACRON",), "Yes", "A better"),
        LinterAnswer(("r1", "e1"), "c", ("LONG_VOWEL_MACRON",), "No", "Yes"),
        # pair 2 (macron + word order): refuted
        LinterAnswer(("r1", "e2"), "a", ("LONG_VOWEL_MACRON", "WORD_ORDER"), "No", "Neither"),
        # pair 3 (word order): undecided (Depends)
        LinterAnswer(("r1", "e3"), "a", ("WORD_ORDER",), "Depends", None),
        # pair 4: no classes recorded, confirmed
        LinterAnswer(("r2", "e1"), "b", (), "Yes", "Yes"),
        # an answer with nothing filled in is ignored
        LinterAnswer(("r2", "e2"), "b", ("OPTIONAL_PARTICLE",), None, None),
    ]
    rows = {r.variant_class: r for r in linter_precision(answers)}
    assert list(rows) == [UNCLASSIFIED, "LONG_VOWEL_MACRON", "WORD_ORDER", ALL_CLASSES]
    macron = rows["LONG_VOWEL_MACRON"]
    assert (macron.pairs, macron.answers, macron.confirmed, macron.refuted, macron.undecided) == (2, 4, 1, 1, 0)
    assert macron.strict.value == 0.5 and macron.lenient.value == 0.5
    assert (macron.strict.ci_lower, macron.strict.ci_upper) == pytest.approx(wilson_interval(1, 2))
    assert macron.natural == {"A better": 1, "Neither": 1, "Yes": 2}
    order = rows["WORD_ORDER"]
    assert (order.pairs, order.confirmed, order.refuted, order.undecided) == (2, 0, 1, 1)
    assert order.strict.value == 0.0 and order.lenient.value == 0.5
    overall = rows[ALL_CLASSES]
    assert (overall.pairs, overall.confirmed, overall.refuted, overall.undecided) == (4, 2, 1, 1)
    assert overall.strict.value == 0.5 and overall.lenient.value == 0.75
    assert rows[UNCLASSIFIED].pairs == 1
    assert linter_precision([]) == []


def test_fst_audit_false_rejection_rate_and_allowlist():
    answers = [
        WordAnswer(("r1", "e1", "namôya"), "namôya", "a", "Yes", "Established"),
        WordAnswer(("r1", "e1", "namôya"), "namôya", "b", "Yes", "Established"),
        WordAnswer(("r1", "e1", "namôya"), "namôya", "c", "No", None),
        WordAnswer(("r1", "e4", "namôya"), "namôya", "a", "Yes", "Dialectal"),
        WordAnswer(("r1", "e2", "kotak"), "kotak", "a", "Yes", "Established"),
        WordAnswer(("r1", "e2", "Edmonton"), "Edmonton", "a", "Yes", "Name"),
        WordAnswer(("r1", "e3", "nipaww"), "nipaww", "a", "No", None),
        WordAnswer(("r1", "e3", "nipaww"), "nipaww", "b", "No", None),
        WordAnswer(("r1", "e5", "kiyâm"), "kiyâm", "a", "Unsure", None),
        WordAnswer(("r1", "e6", "astam"), "astam", "a", "Yes", "Established"),
        WordAnswer(("r1", "e6", "astam"), "astam", "b", "No", None),
        WordAnswer(("r1", "e7", "x"), "x", "a", None, None),  # no answer: ignored
    ]
    audit = fst_audit(answers)
    assert (audit.occurrences, audit.valid, audit.invalid, audit.unresolved) == (7, 4, 1, 2)
    assert audit.false_rejection.value == pytest.approx(0.8)
    assert (audit.false_rejection.ci_lower, audit.false_rejection.ci_upper) == pytest.approx((0.3755, 0.9638), abs=1e-4)
    assert audit.by_kind == {"Dialectal": 1, "Established": 2, "Name": 1}
    assert audit.allowlist == [
        {"word": "Edmonton", "kind": "Name", "occurrences": 1, "raters": 1, "example": ("r1", "e2", "Edmonton")},
        {"word": "kotak", "kind": "Established", "occurrences": 1, "raters": 1, "example": ("r1", "e2", "kotak")},
        {"word": "namôya", "kind": "Dialectal", "occurrences": 2, "raters": 2, "example": ("r1", "e1", "namôya")},
    ]
    empty = fst_audit([])
    assert empty.false_rejection.value is None and empty.allowlist == []
