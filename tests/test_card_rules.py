"""Card rule patterns: matched in linear time with Python's meaning; what needs backtracking is refused."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui import cards
from mteval_gui.cli import main
from mteval_gui.domain.card import OrthographyProfile, OrthographyRule
from mteval_gui.linear_regex import compile_rule, rule_problem
from mteval_gui.paths import user_cards_dir
from mteval_gui.scoring.metrics.orthography import OrthographyChecker

REPO = Path(__file__).resolve().parent.parent
HOSTILE = "^(a|aa)+$"
WORD = "a" * 49 + "b"  # 50 letters; Python's re tries ~10^10 ways of splitting the a's


def _card(code: str, patterns: list[str]) -> dict:
    return {"code": code, "name": f"Test {code}",
            "orthography": {"rules": [{"pattern": p, "message": f"rule {p}"} for p in patterns]}}


def test_a_rule_that_backtracks_in_re_is_matched_at_once_in_a_scoring_run(tmp_path):
    """``cards add`` takes ``^(a|aa)+$`` (RE2 can match it); ``mteval evaluate`` of a 50-letter word then
    ends. Run in a child with a generous limit so that a regression fails instead of hanging."""
    card = tmp_path / "kal.json"
    card.write_text(json.dumps(_card("kal", [HOSTILE, "aa"])), encoding="utf-8")
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"id": "e1", "source": "x", "reference": "aa"}) + "\n", encoding="utf-8")
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps({"id": "e1", "predicted": WORD}) + "\n", encoding="utf-8")
    out = tmp_path / "card-out.json"
    env = dict(os.environ, PYTHONPATH=str(REPO), HF_HUB_OFFLINE="1")
    env.pop("MTEVAL_CARDS_DIR", None)
    added = subprocess.run([sys.executable, "-m", "mteval_gui", "cards", "add", str(card)], env=env,
                           capture_output=True, text=True, timeout=120)
    assert added.returncode == 0, added.stderr
    done = subprocess.run([sys.executable, "-m", "mteval_gui", "evaluate", "--corpus", str(corpus), "--run", str(run),
                           "--source-lang", "eng", "--lang", "kal", "--metrics", "core.ortho", "--bootstrap", "0",
                           "-o", str(out)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    scores = json.loads(out.read_text(encoding="utf-8"))["scores"]
    assert scores["orthographic_accuracy"] == 0.0  # "aa" is in the word: the second rule fires


def test_rules_find_what_python_re_finds():
    words = ["ɖevi", "ƉEVI", "aa", "a_1", "١٢", "naa\n", "é́", "x y", "kpɔ", "a" * 50, "", "A", "ŋ"]
    for pattern in ["(aa|ii|oo|ee)", r"\w+\d", r"^\w+$", r"[^\W\d_]", r"(?i)[^\W\da]", r"[\W\d]", r"(?i)ɖ",
                    r"\s", r"\S{3}", r"a$", r"\Z", r"(?a)\w$", "x{2,3}?", r"(?x) a a # comment", r"(?i:A)",
                    r"[-a]", r"\D", r"(?m)^a$", HOSTILE]:
        found = compile_rule(pattern)
        rx = re.compile(pattern)
        assert [found(w) for w in words] == [rx.search(w) is not None for w in words], pattern
    assert [compile_rule(r"[^\W\d_]")(w) for w in ["ɔ", "_", "٣", "-", "Ŋ"]] == [True, False, False, False, True]


def test_every_rule_of_the_bundled_cards_compiles_for_linear_time_matching():
    patterns = [r.pattern for info in cards.list_cards() if info.card is not None
                for r in info.card.orthography.rules]
    assert patterns == ["(aa|ii|oo|ee)"]
    assert [rule_problem(p) for p in patterns] == [None]
    checker = OrthographyChecker(OrthographyProfile(rules=[OrthographyRule(pattern="(aa|ii|oo|ee)", message="long")]))
    assert [v.message for v in checker.check("niipaaw")] == ["long"]
    assert checker.check("nîpâw") == []


@pytest.mark.parametrize(("pattern", "what"), [
    (r"(a)\1", r"a backreference (\1)"),
    (r"(?P<v>a)(?P=v)", r"a backreference (\1)"),
    (r"(?<=n)aa", "a lookbehind"),
    (r"aa(?!w)", "a negative lookahead"),
    (r"\baa", r"a word boundary (\b or \B)"),
    ("a++", "a possessive quantifier (*+, ++, ?+)"),
    ("(?>a|aa)", "an atomic group ((?>...))"),
    ("(a)?(?(1)b|c)", "a conditional group ((?(1)...))"),
])
def test_cards_add_and_validate_refuse_what_needs_backtracking(tmp_path, capsys, monkeypatch, pattern, what):
    card = tmp_path / "kal.json"
    card.write_text(json.dumps(_card("kal", ["aa", pattern])), encoding="utf-8")
    assert main(["cards", "add", str(card)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"{card}: rule orthography.rules[1]: pattern uses {what} which is not supported "
                   "(linear-time matching)", "mteval: the card was not added; nothing was written"]
    assert not (user_cards_dir() / "kal.json").exists()
    monkeypatch.setenv(cards.CARDS_DIR_ENV, str(tmp_path))
    assert cards.validate_all() == [f"kal.json: rule orthography.rules[1]: pattern uses {what} which is not "
                                    "supported (linear-time matching)"]


def test_without_re2_patterns_that_could_backtrack_are_refused(monkeypatch):
    """Where google-re2 has no wheel, rules run with re and the shapes of catastrophic backtracking are refused."""
    from mteval_gui import linear_regex

    monkeypatch.setattr(linear_regex, "re2", None)
    linear_regex.compile_rule.cache_clear()
    try:
        assert rule_problem(HOSTILE) == ("pattern uses an alternation inside a repetition which is not supported "
                                         "(linear-time matching)")
        assert rule_problem(r"(a+)+$") == ("pattern uses a repetition inside a repetition which is not supported "
                                           "(linear-time matching)")
        assert rule_problem("(aa|ii|oo|ee)") is None
        assert compile_rule("(aa|ii|oo|ee)")("niipaaw") is True
        assert rule_problem("a[bc]+d{2,3}") is None
    finally:
        linear_regex.compile_rule.cache_clear()
