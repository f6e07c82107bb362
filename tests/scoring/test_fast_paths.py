"""The fast paths of the per-entry metrics (tokens, scripts, keys, word-list look-ups,
capitalised words) give what the plain definitions give: literal cases, and every line of the
MAFAND sources, references and 32 system outputs against the plain code (shared data)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from eval_standards.ewe.lexicon import ewe_lexicon
from eval_standards.ewe.orthography import find_in_words, find_sequences, word_keys
from eval_standards.ewe.quality import ewe_quality
from mteval_gui.scoring.metrics import behavioural
from mteval_gui.scoring.metrics.behavioural import char_script, mid_sentence_capitalised, token_script
from mteval_gui.scoring.metrics.compliance import ComplianceMetric, placeholders
from mteval_gui.scoring.plugins import ScoringContext
from mteval_gui.text import match_key, match_keys, word_tokens
from tests.conftest import SHARED_DATA
from tests.scoring.metric_helpers import item

# ------------------------------------------------------------------ the plain definitions


def plain_word_tokens(s: str) -> list[str]:
    """SPEC §2 character by character: whitespace split, edge P*/S* stripped, empty and numeric dropped."""
    out = []
    for raw in unicodedata.normalize("NFC", s).split():
        start, end = 0, len(raw)
        while start < end and unicodedata.category(raw[start])[0] in "PS":
            start += 1
        while end > start and unicodedata.category(raw[end - 1])[0] in "PS":
            end -= 1
        tok = raw[start:end]
        if tok and not re.fullmatch(r"[\d.,:/%+\-]+", tok):
            out.append(tok)
    return out


def plain_token_script(token: str) -> str | None:
    counts = Counter(s for s in map(char_script, token) if s)
    return counts.most_common(1)[0][0] if counts else None


def plain_find_sequences(words: Sequence[str], sequences: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
    found = []
    singles = set(words)
    for seq in sequences:
        if not seq:
            continue
        if len(seq) == 1:
            if seq[0] in singles:
                found.append(seq)
            continue
        k = len(seq)
        if any(tuple(words[i:i + k]) == seq for i in range(len(words) - k + 1)):
            found.append(seq)
    return found


def plain_find_in_words(words: Sequence[str], sequences: Iterable[tuple[str, ...]]) -> list[tuple[str, ...]]:
    seqs = list(sequences)
    found = set(plain_find_sequences(words, seqs))
    if any(re.search("['’ʼ]", w) for w in words):
        found |= set(plain_find_sequences([p for w in words for p in re.split("['’ʼ]", w) if p], seqs))
    return [s for s in seqs if s in found]


def plain_mid_sentence_capitalised(text: str) -> list[str]:
    out = []
    prev: str | None = None
    for raw in unicodedata.normalize("NFC", text).split():
        tok = plain_word_tokens(raw)
        starts = prev is None or prev.rstrip("\"'”’»)]›")[-1:] in ".!?:…。！？"
        prev = raw
        first = next((c for c in tok[0] if c.isalpha()), "") if tok else ""
        if first and first.isupper() and not starts:
            out.append(tok[0])
    return out


# ------------------------------------------------------------------ literal cases


def test_word_tokens_literal():
    text = "«Ŋkeke» ɖe-ɖe, 12 3,5 vɔ̃! 'x' ... — Kofi’s (é)"
    assert word_tokens(text) == ["Ŋkeke", "ɖe-ɖe", "vɔ̃", "x", "Kofi’s", "é"]
    assert word_tokens(text) == plain_word_tokens(text)
    assert word_tokens("abc ABC") == ["abc", "ABC"] and word_tokens("") == [] and word_tokens(None) == []


def test_match_keys_of_a_text_s_words():
    assert match_keys(["Ŋkeke", "", "ÉWÉ", "Straße"]) == ["ŋkeke", "", "éwé", "strasse"]
    assert match_keys(["Ŋkeke", "ÉWÉ"]) == [match_key("Ŋkeke"), match_key("ÉWÉ")]


def test_token_script_literal():
    assert [token_script(t) for t in ("Ŋkeke", "abc", "a-b", "123", "--", "ab-ΔΣΦ", "abΔΣ", "ΔΣab", "ᓀᐦᐃᔭᐍᐏᐣ")] == [
        "Latn", "Latn", "Latn", None, None, "Grek", "Latn", "Grek", "Cans"]


def test_find_sequences_keeps_the_order_and_repeats_of_the_list():
    words = ["a", "b", "c", "a"]
    seqs = [("c",), ("x",), ("a", "b"), ("b", "a"), (), ("a",), ("c",), ("c", "a"), ("a", "b", "c", "a", "b")]
    assert find_sequences(words, seqs) == [("c",), ("a", "b"), ("a",), ("c",), ("c", "a")]
    assert find_sequences(words, iter(seqs)) == plain_find_sequences(words, seqs)
    assert find_in_words(["l'effort", "qu'il"], [("il",), ("effort",), ("qu'il",), ("le",)]) == [
        ("il",), ("effort",), ("qu'il",)]


def test_ewe_quality_takes_the_card_folds_once():
    lex = ewe_lexicon()
    # "Ð" is folded to "Ɖ" by the card: an Ewe letter; without folds it is not
    assert ewe_quality("Ðe", lex)[1]["ewe_letters"]["found"] == ["ɖ"]
    assert ewe_quality("Ðe", lex, {})[1]["ewe_letters"]["found"] == []
    assert ewe_quality("Ðe", lex, {"Ð": "Ɖ"})[1]["ewe_letters"]["found"] == ["ɖ"]


def test_mid_sentence_capitalised_literal():
    text = "Kofi yi Lomé. Ame Ðeka kple «Ama» gbɔ: Eya 12 Accra"
    assert mid_sentence_capitalised(text) == ["Lomé", "Ðeka", "Ama", "Accra"]
    assert mid_sentence_capitalised(text) == plain_mid_sentence_capitalised(text)


def test_placeholders_without_a_placeholder_character():
    assert placeholders("100 % sûr, 5 $ et <b>gras</b> {n}") == Counter({"<b>": 1, "</b>": 1, "{n}": 1})
    assert placeholders("Ame aɖe be yeawɔ dɔ sia") == Counter()
    assert placeholders("50 %s ici") == Counter({"%s": 1})


def test_compliance_scores_an_unprocessed_output_once_with_its_own_details():
    m = ComplianceMetric()
    m.prepare(ScoringContext(source_lang="fra", target_lang="ewe"))
    it = item(0, "Bonjour {name}", "Woezɔ", "Woezɔ “{name}”")
    [score] = m.score_entries([it])
    assert score.detail["final"] == score.detail["raw"] == {
        "missing_placeholders": [], "extra_placeholders": [], "bad_quotes": [], "cased_letters": []}
    assert score.detail["final"] is not score.detail["raw"]
    assert score.value == 1.0 and score.values["compliance_index_raw"] == 1.0 and score.detail["raw_violations"] == []


# ------------------------------------------------------------------ every MAFAND line

MAFAND = SHARED_DATA / "ewe" / "mafand-fr-ewe"


def _mafand_lines() -> list[str]:
    files = [MAFAND / "test.fr", MAFAND / "test.ewe", *sorted((MAFAND / "predictions").glob("*.txt"))]
    return [line for f in files for line in f.read_text(encoding="utf-8").splitlines()]


@pytest.mark.shared_data
def test_fast_paths_equal_the_plain_code_on_every_mafand_line():
    lines = _mafand_lines()
    assert len(lines) == 34 * 1563
    lex = ewe_lexicon()
    tokens: set[str] = set()
    for i, line in enumerate(lines):
        toks = word_tokens(line)
        assert toks == plain_word_tokens(line), line
        tokens.update(toks)
        if i % 4:
            continue  # a quarter of the lines for the slower plain code (every system's, every 4th line)
        assert mid_sentence_capitalised(line) == plain_mid_sentence_capitalised(line), line
        words = word_keys(line)
        for seqs in (lex.common.keys, lex.french_keys):
            assert find_in_words(words, seqs) == plain_find_in_words(words, seqs), line
    assert len(tokens) > 35_000
    behavioural.token_script.cache_clear()
    assert all(token_script(t) == plain_token_script(t) for t in tokens)
