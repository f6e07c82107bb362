"""The ÈwéBench Ewe quality heuristic (SPEC §10), as a function and as an MT metric plugin.

``ewe_quality(text) -> (score, components)`` adds, in hundredths so that results are exact:

| component | points |
|---|---|
| ``ewe_letters``: any of ɖ ɛ ɔ ƒ ŋ ɣ ʋ (either case, after look-alike folds) | +0.30 |
| ``common_words``: +0.05 per distinct common Ewe word present as a whole word | at most +0.40 |
| ``french_words``: more than 5 distinct French words (list without words that are also Ewe) | −0.20 |
| ``sentences``: two or more sentences | +0.20 |
| ``length``: more than 20 characters | +0.10 |

and clamps the sum to [0, 1]. Definitions:

- Text is compared in NFC, casefolded, with the Ewe card's look-alike folds; words are whole
  words (:func:`~eval_standards.ewe.orthography.find_words`; ``qu'il`` also shows ``il``).
- A sentence is a stretch of text ended by ``.``, ``!``, ``?`` or ``…`` followed by white space
  or the end of the text, or by a line break; only stretches containing a letter count.
- Length is the number of characters (Unicode code points, NFC) after stripping white space.

The word lists are the editable TSV files named by the Ewe card (``lexicon_files``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from eval_standards.ewe.lexicon import EweLexicon, ewe_lexicon
from eval_standards.ewe.orthography import WORD_RE, card_folds, find_in_words, fold_key, letters_in_key, use_card
from mteval_gui.domain.messages import Message, msg
from mteval_gui.scoring.plugins import (
    BaseMetric,
    CorpusScore,
    EntryInput,
    EntryScore,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
)
from mteval_gui.scoring.stats import EntryStats
from mteval_gui.text import nfc

# points in hundredths
LETTER_POINTS = 30
WORD_POINTS = 5
WORD_POINTS_MAX = 40
FRENCH_PENALTY = 20
FRENCH_THRESHOLD = 5  # penalised when strictly more distinct French words than this
SENTENCE_POINTS = 20
MIN_SENTENCES = 2
LENGTH_POINTS = 10
MIN_LENGTH = 20  # rewarded when strictly longer than this

_SENTENCE_SPLIT = re.compile(r"[.!?…]+(?=\s|$)|\n+")
_HAS_LETTER = re.compile(r"[^\W\d_]")


def count_sentences(text: str | None) -> int:
    """Number of sentences (see module docstring)."""
    if not text:
        return 0
    return sum(1 for part in _SENTENCE_SPLIT.split(nfc(text)) if _HAS_LETTER.search(part))


def ewe_quality(text: str | None, lexicon: EweLexicon | None = None,
                folds: Mapping[str, str] | None = None) -> tuple[float, dict[str, Any]]:
    """Score ``text`` with the Ewe quality heuristic; returns ``(score, components)``.

    ``components`` holds, per component, what was found and the points it earned, plus
    ``raw`` (sum before clamping) and ``score``. ``folds``: the Ewe card's (read from the card
    in use when None).
    """
    lex = lexicon if lexicon is not None else ewe_lexicon()
    text = nfc(text or "")
    key = fold_key(text, folds)
    letters = letters_in_key(key)
    words = WORD_RE.findall(key)
    common_found = find_in_words(words, lex.common.keys)
    french_found = find_in_words(words, lex.french_keys)
    n_sent = count_sentences(text)
    n_chars = len(text.strip())

    p_letters = LETTER_POINTS if letters else 0
    p_words = min(WORD_POINTS_MAX, WORD_POINTS * len(common_found))
    p_french = -FRENCH_PENALTY if len(french_found) > FRENCH_THRESHOLD else 0
    p_sent = SENTENCE_POINTS if n_sent >= MIN_SENTENCES else 0
    p_len = LENGTH_POINTS if n_chars > MIN_LENGTH else 0
    raw = p_letters + p_words + p_french + p_sent + p_len
    clamped = max(0, min(100, raw))
    score = clamped / 100
    components: dict[str, Any] = {
        "ewe_letters": {"found": letters, "points": p_letters / 100},
        "common_words": {
            "found": [lex.common.word_of(k) for k in common_found],
            "count": len(common_found),
            "points": p_words / 100,
            "max_points": WORD_POINTS_MAX / 100,
        },
        "french_words": {
            "found": [lex.french.word_of(k) for k in french_found],
            "count": len(french_found),
            "threshold": FRENCH_THRESHOLD,
            "points": p_french / 100,
        },
        "sentences": {"count": n_sent, "points": p_sent / 100},
        "length": {"chars": n_chars, "points": p_len / 100},
        "raw": raw / 100,
        "score": score,
    }
    return score, components


def explain_quality(components: dict[str, Any]) -> list[str]:
    """Human-readable lines for a components dict (used by the CLI and the GUI)."""
    return [m.text() for m in quality_messages(components)]


def quality_messages(components: dict[str, Any]) -> list[Message]:
    """The lines of :func:`explain_quality` as translatable messages."""
    c = components
    letters = c["ewe_letters"]
    cw = c["common_words"]
    fw = c["french_words"]
    lines = [
        msg("Ewe letters: {letters} ({points:+.2f})", letters=" ".join(letters["found"]) or msg("none"),
            points=letters["points"]),
        msg("common Ewe words: {count} ({words}) ({points:+.2f}, max +{max_points:.2f})", count=cw["count"],
            words=", ".join(cw["found"]) or msg("none"), points=cw["points"], max_points=cw["max_points"]),
        msg("French words: {count} ({words}) ({points:+.2f}; penalty above {threshold})", count=fw["count"],
            words=", ".join(fw["found"]) or msg("none"), points=fw["points"], threshold=fw["threshold"]),
        msg("sentences: {count} ({points:+.2f})", count=c["sentences"]["count"], points=c["sentences"]["points"]),
        msg("length: {chars} characters ({points:+.2f})", chars=c["length"]["chars"], points=c["length"]["points"]),
    ]
    if c["raw"] != c["score"]:
        lines.append(msg("sum {raw:.2f} clamped to {score:.2f}", raw=c["raw"], score=c["score"]))
    return lines


class EweQualityMetric(BaseMetric):
    """``ewe.quality``: the ÈwéBench Ewe quality heuristic on MT outputs into Ewe.

    Per entry: the heuristic score of the output (an error or empty output scores 0) with its
    components as detail. Corpus: the mean over all entries (``ewe_quality``).
    """

    info: ClassVar[MetricInfo] = MetricInfo(
        id="ewe.quality",
        version="1",
        display_name="Ewe quality heuristic (ÈwéBench)",
        scale="0-1",
        label="Ewe quality",
        labels={"fr": "Qualité éwé"},
        validation="heuristic",
        higher_is_better=True,
        needs_reference=False,
        produces=("ewe_quality",),
        data_files=("data",),  # its word lists
        description="Rule-based Ewe-ness of the output: Ewe letters, common Ewe words, French words, "
                    "sentences and length (SPEC §10). Not a translation-quality measure.",
    )

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        if context.target_lang != "ewe":
            raise MetricUnavailable("the Ewe quality heuristic only applies to output in Ewe", "not_applicable")
        use_card(context.target_card)  # the card the application looked up (None: the bundled one)
        self._lexicon = ewe_lexicon()
        self._folds = card_folds()  # the card's, once per job

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        out = []
        for item in items:
            score, comps = ewe_quality(item.predicted, self._lexicon, self._folds)
            out.append(EntryScore(score, {"ewe_quality": score}, {"components": comps}))
        return out

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """The quality score: the mean of the entries' scores."""
        return {"ewe_quality": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        vals = [e.value for e in per_entry if e.value is not None]
        if not vals:
            return CorpusScore({"ewe_quality": None}, availability="not_applicable", reason="no entries")
        extra = {"lexicon": self._lexicon.describe()}
        return CorpusScore({"ewe_quality": sum(vals) / len(vals)}, extra=extra)
