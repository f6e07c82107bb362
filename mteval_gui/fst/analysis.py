"""Morphological analyses as the application shows and compares them.

An HFST analyzer returns strings such as
``@U.order.cnj@@P.joiner.hyphen@PV/e+@R.joiner.hyphen@ayâw+V+AI@U.order.cnj@+Cnj+1Sg``.
The ``@...@`` parts are flag diacritics (bookkeeping of the transducer, never part of the
analysis); they are removed before anything is stored or shown. The remaining string
``PV/e+ayâw+V+AI+Cnj+1Sg`` is split into:

- ``preverbs``: leading ``PV/...`` morphemes (``PV/e``, ``PV/ki``),
- ``prefix_tags``: other leading tags, e.g. reduplication ``RdplW`` / ``RdplS`` or ``Err/Orth``,
- ``lemma``: the first part that is not a prefix tag (``ayâw``),
- ``tags``: everything after the lemma (``V``, ``AI``, ``Cnj``, ``1Sg``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

FLAG_DIACRITIC = re.compile(r"@[PNRDCU]\.[^@]*@")
_PREVERB = re.compile(r"^PV/[^+]*$")
_PREFIX_TAG = re.compile(r"^(?:Rdpl\w*|[A-Z][A-Za-z0-9]*/[^+]+)$")


def strip_flags(s: str) -> str:
    """Remove HFST flag diacritics (``@U.x.y@``, ``@P.x.y@``, ...) from an analysis string."""
    return FLAG_DIACRITIC.sub("", s) if "@" in s else s


@dataclass(frozen=True)
class Analysis:
    """One analysis of one word form."""

    raw: str
    lemma: str
    tags: tuple[str, ...] = ()
    preverbs: tuple[str, ...] = ()
    prefix_tags: tuple[str, ...] = ()

    @property
    def reduplication(self) -> tuple[str, ...]:
        """Reduplication tags (``RdplW`` weak, ``RdplS`` strong) among the prefix tags."""
        return tuple(t for t in self.prefix_tags if t.startswith("Rdpl"))

    @property
    def tag_set(self) -> frozenset[str]:
        """Every grammatical element except the lemma: preverbs, prefix tags and tags."""
        return frozenset(self.preverbs + self.prefix_tags + self.tags)

    @property
    def pos(self) -> str | None:
        """The first tag after the lemma (part of speech: ``V``, ``N``, ``Ipc``...)."""
        return self.tags[0] if self.tags else None

    def to_json(self) -> str:
        return self.raw

    @classmethod
    def from_json(cls, d: Any) -> Analysis:
        if isinstance(d, str):
            return parse_analysis(d)
        return parse_analysis(d["raw"])

    def __str__(self) -> str:
        return self.raw


@lru_cache(maxsize=65536)
def parse_analysis(raw: str) -> Analysis:
    """Parse one analysis string (flag diacritics are removed first)."""
    s = strip_flags(raw).strip()
    parts = s.split("+")
    preverbs: list[str] = []
    prefix: list[str] = []
    i = 0
    while i < len(parts) - 1:
        p = parts[i]
        if _PREVERB.match(p):
            preverbs.append(p)
        elif _PREFIX_TAG.match(p):
            prefix.append(p)
        elif p == "" and i == 0:
            pass  # analysis of a literal '+'
        else:
            break
        i += 1
    lemma = parts[i] if i < len(parts) else ""
    tags = tuple(t for t in parts[i + 1:] if t)
    return Analysis(raw=s, lemma=lemma, tags=tags, preverbs=tuple(preverbs), prefix_tags=tuple(prefix))


@dataclass(frozen=True)
class WordAnalysis:
    """The analyses of one token of a text.

    ``form`` is what was looked up successfully (one of the case variants of the analyzer
    form) or, for a rejected token, the analyzer form as written. ``folded`` is set when the
    word was accepted only after a respelling — the language card's orthographic folds
    (Cree ``ā`` → ``â``) or typographic hyphens turned into ``-`` — and holds that respelling.
    ``script`` is set when the token is written in another script of the language (Cree
    syllabics): ``form`` is then its transliteration into the analyzer's script.
    """

    token: str
    form: str
    analyses: tuple[Analysis, ...] = ()
    folded: str | None = None
    script: str | None = None  # set when the token is written in another script than the analyzer's

    @property
    def accepted(self) -> bool:
        return bool(self.analyses)

    @property
    def lemmas(self) -> frozenset[str]:
        return frozenset(a.lemma for a in self.analyses)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "token": self.token,
            "form": self.form,
            "accepted": self.accepted,
            "analyses": [a.raw for a in self.analyses],
        }
        if self.folded is not None:
            d["folded"] = self.folded
        if self.script is not None:
            d["script"] = self.script
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> WordAnalysis:
        return cls(
            token=d["token"],
            form=d.get("form", d["token"]),
            analyses=tuple(parse_analysis(a) for a in d.get("analyses", ())),
            folded=d.get("folded"),
            script=d.get("script"),
        )
