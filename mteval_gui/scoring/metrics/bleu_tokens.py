"""BLEU's tokens of a segment, as sacrebleu's ``BLEU._preprocess_segment(s).split()`` gives them.

The default tokenizer, ``13a`` (mteval-v13a), is done here with the same effect and less
work: its first rule puts spaces around every character of a fixed ASCII set, which
``str.replace`` does for each character the segment holds (the space first, so that the
spaces it adds are not spaced again). Its rules for periods and commas put spaces around
one that follows a non-digit and around one followed by a non-digit: when no period or
comma touches a digit or another period or comma, that is a space on either side of each,
which ``str.replace`` does; otherwise they are sacrebleu's regular expressions. The rule
for a dash after a digit is its regular expression, run when the segment holds a dash.
Every other tokenizer is sacrebleu's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# the first rule of 13a: these characters get a space on either side
_SPACED = "".join(chr(c) for lo, hi in ((0x7B, 0x7E), (0x5B, 0x60), (0x20, 0x26), (0x28, 0x2B), (0x3A, 0x40),
                                        (0x2F, 0x2F)) for c in range(lo, hi + 1))
_SPACE_AROUND = [(c, f" {c} ") for c in _SPACED if c != " "]
_PERIOD_AFTER = re.compile(r"([^0-9])([\.,])")
_PERIOD_BEFORE = re.compile(r"([\.,])([^0-9])")
_PERIOD_TOUCHING = re.compile(r"[0-9.,][.,]|[.,][0-9]")
_DIGIT_DASH = re.compile(r"([0-9])(-)")
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def tokens_13a(line: str) -> list[str]:
    """The 13a tokens of ``line`` (already lowercased if the metric lowercases, not stripped)."""
    line = line.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in _ENTITIES:
            line = line.replace(entity, char)
    line = f" {line} ".replace(" ", "   ")
    for char, spaced in _SPACE_AROUND:
        if char in line:
            line = line.replace(char, spaced)
    if "." in line or "," in line:
        if _PERIOD_TOUCHING.search(line) is None:
            # both rules match each of them once: spaces around it (the line starts and
            # ends with a space, so each has a character either side)
            line = line.replace(".", " . ").replace(",", " , ")
        else:
            line = _PERIOD_AFTER.sub(r"\1 \2 ", line)
            line = _PERIOD_BEFORE.sub(r" \1 \2", line)
    if "-" in line:
        line = _DIGIT_DASH.sub(r"\1 \2 ", line)
    return line.split()


def tokenizer_for(metric: Any) -> Callable[[str], list[str]]:
    """``segment -> tokens`` for a configured ``sacrebleu.metrics.BLEU`` object."""
    if metric.tokenizer.signature() == "13a":
        if metric.lowercase:
            return lambda s: tokens_13a(s.lower())
        return tokens_13a

    def tokens(s: str) -> list[str]:
        return list(metric._preprocess_segment(s).split())

    return tokens
