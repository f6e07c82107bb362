"""Language codes found in file names and harness configurations, mapped to ISO 639-3.

Only what importers need to guess a language pair: two-letter ISO 639-1 codes of file
extensions (``test.fr``) and English language names of harness reports ("Northern Sámi").
Anything else must be given explicitly (``--source-lang`` / ``--target-lang``).

Wherever a code enters the application (a corpus' language pair, a command-line argument,
a reviewer's languages) it must be an ISO 639-3 code, three lowercase letters
(:func:`language_code` checks it): a code names files to load (language cards), so
``"../../evil/zzq"`` must never get past the reader.
"""

from __future__ import annotations

import re
import unicodedata

ISO1_TO_3 = {
    "af": "afr", "am": "amh", "ar": "arb", "bm": "bam", "cy": "cym", "da": "dan", "de": "deu",
    "ee": "ewe", "en": "eng", "es": "spa", "fi": "fin", "fo": "fao", "fr": "fra", "ha": "hau",
    "ig": "ibo", "it": "ita", "ja": "jpn", "lg": "lug", "ln": "lin", "nb": "nob", "nl": "nld",
    "nn": "nno", "no": "nor", "ny": "nya", "pt": "por", "qu": "que", "ru": "rus", "rw": "kin",
    "se": "sme", "sn": "sna", "so": "som", "sv": "swe", "sw": "swa", "tk": "tuk", "tn": "tsn",
    "tw": "twi", "wo": "wol", "xh": "xho", "yo": "yor", "zh": "zho", "zu": "zul",
}

NAME_TO_3 = {
    "amharic": "amh", "arabic": "arb", "english": "eng", "ewe": "ewe", "faroese": "fao",
    "french": "fra", "german": "deu", "japanese": "jpn", "kapampangan": "pam", "pampanga": "pam",
    "northern sami": "sme", "north sami": "sme", "plains cree": "crk", "quechua": "que",
    "shona": "sna", "spanish": "spa", "turkmen": "tuk", "welsh": "cym",
}

_CODE3 = re.compile(r"^[a-z]{3}$")
_PAIR_PREFIX = re.compile(r"^([a-z]{3})[-_]([a-z]{3})(?:[-_.]|$)")


def _fold(s: str) -> str:
    s = unicodedata.normalize("NFKD", s.strip().lower())
    return "".join(ch for ch in s if not unicodedata.combining(ch))


def code_problem(code: object) -> str | None:
    """Why ``code`` is not an ISO 639-3 code (None if it is one)."""
    if isinstance(code, str) and _CODE3.fullmatch(code):
        return None
    shown = repr(code) if not isinstance(code, str) or len(code) <= 40 else repr(code[:40] + "...")
    return f"language code {shown} is not an ISO 639-3 code (three lowercase letters, e.g. crk, ewe, fra)"


def language_code(code: object) -> tuple[str | None, str | None]:
    """``(code, None)`` for a usable code (``fr`` and ``FRA`` become ``fra``), ``(None, problem)`` otherwise."""
    if not isinstance(code, str):
        return None, code_problem(code)
    c = normalise_code(code)
    problem = code_problem(c)
    return (None, problem) if problem else (c, None)


def normalise_code(code: str | None) -> str | None:
    """A code as ISO 639-3 when recognisable (``fr`` -> ``fra``), else the code lower-cased."""
    if not code:
        return None
    c = code.strip().lower()
    if not c:
        return None
    return ISO1_TO_3.get(c, c)


def code_from_extension(suffix: str) -> str | None:
    """``.fr`` -> ``fra``, ``.ewe`` -> ``ewe``; None for extensions that are not codes."""
    s = suffix.lstrip(".").lower()
    if s in ISO1_TO_3:
        return ISO1_TO_3[s]
    if _CODE3.match(s) and s not in {"txt", "tsv", "csv", "dat", "out", "hyp", "ref", "src", "log"}:
        return s
    return None


def code_from_name(name: str | None) -> str | None:
    """An English language name or a code -> ISO 639-3 code, or None."""
    if not name:
        return None
    folded = _fold(name)
    if folded in NAME_TO_3:
        return NAME_TO_3[folded]
    if _CODE3.match(folded) or folded in ISO1_TO_3:
        return normalise_code(folded)
    return None


def pair_from_stem(stem: str) -> tuple[str, str] | None:
    """``eng-sme-dev-v1`` -> (eng, sme)."""
    m = _PAIR_PREFIX.match(stem.lower())
    return (m.group(1), m.group(2)) if m else None
