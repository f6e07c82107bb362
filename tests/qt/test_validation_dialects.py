"""The Validation tab shows agreement within and across dialects, in English and French."""

from __future__ import annotations

from mteval_gui.validation.study import Rating, run_study

SCORES = {"a1": [5, 4, 2, 1], "a2": [5, 4, 2, 2], "b1": [1, 2, 4, 5], "b2": [2, 2, 4, 5], "c": [3, 3, 3, 3]}
DIALECTS = {"a1": "Plains", "a2": "Plains", "b1": "Woods", "b2": "Woods", "c": None}


def study(with_dialects=True):
    return run_study([Rating("run", f"e{i}", r, x, None, DIALECTS[r] if with_dialects else None)
                      for r, v in SCORES.items() for i, x in enumerate(v)], {}, n_bootstrap=200)


def view(qtbot):
    from mteval_gui.qt.validation_view import ValidationView

    v = ValidationView()
    qtbot.addWidget(v)
    return v


def test_dialect_agreement_lines(qtbot):
    v = view(qtbot)
    v._show(study())
    text = v.alpha_dialects.text().splitlines()
    assert text[0].startswith("within Plains: 0.910  [") and text[0].endswith("(2 reviewers)")
    assert text[2].startswith("across dialects: -0.863  [-0.914, -0.836]") and text[2].endswith("(16 pairs of ratings)")
    assert text[3] == "1 reviewer(s) without a dialect left out"
    v._show(study(with_dialects=False))
    assert v.alpha_dialects.text() == "— (no reviewer's dialect is recorded)"


def test_dialect_agreement_in_french(qtbot, french):
    v = view(qtbot)
    v._show(study())
    lines = v.alpha_dialects.text().splitlines()
    assert lines[0].startswith("au sein de Plains\u202f: 0.910")
    assert lines[2].startswith("entre dialectes\u202f: -0.863")
