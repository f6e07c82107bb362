"""Review packs: one self-contained HTML file a speaker opens offline, and the answers it exports.

**The pack** (``write_pack``) is one HTML file holding the pack's data (a JSON block), the
reviewing code and style (``resources/review_pack/pack.js`` and ``pack.css``, plain JS/CSS) and
the fonts the texts need, subset with fontTools to the characters the pack uses and embedded as
WOFF ``data:`` URLs. A second JSON block, ``#review-keys``, holds the rating key map shared
with the desktop (:mod:`mteval_gui.domain.review_keys`); ``pack.js`` has no keys of its own.
Its Content-Security-Policy (``default-src 'none'``, the one inline script and style allowed by
their sha256 hashes, fonts only from ``data:``) forbids every network access, and the file
names no external URL at all.

The pack's ``content_sha256`` is the sha256 of the canonical JSON (sorted keys, no spaces,
UTF-8) of its data without that key.

**The answers file** (``mteval-review-answers/1``) is what the pack exports::

    {"format": "mteval-review-answers/1", "pack_id", "pack_sha256", "reviewer_id", "task", "exported_at",
     "answers": [{"id", "item", "version", "created_at", "adequacy", "fluency", "note", "flagged",
                  "payload", "superseded_by", "undone"}, ...],
     "answers_hmac": HMAC-SHA256 of the canonical JSON of "answers", keyed with the pack's answers_key}

``item`` indexes the pack's items; ``id`` and ``superseded_by`` number the pack's own log. A
rating of a whole document (task D) also has ``doc``, the index of the document in the pack's
``documents`` (its ``item`` is the document's first item in the pack).
Each pack carries a secret ``answers_key`` (32 random bytes, hex) that the workspace keeps
with its record of the pack; the page signs the answers with it (HMAC over the page's own
SHA-256, no Web Crypto needed). A plain sha256 could be recomputed by anyone who edits the
file; the HMAC only by someone who takes the key out of the pack page. Packs made before
the key existed export ``answers_sha256`` (plain sha256) instead.
:func:`read_answers` checks the file's shape; :func:`answers_digest_problem` checks the
digest against the pack's key, then :func:`answer_rows` checks each answer's fields (whole
numbers within 64 bits, true/false only as JSON booleans); the workspace checks the rest.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import os
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mteval_gui.domain.review_keys import keymap_data
from mteval_gui.errors import Defect, InputError
from mteval_gui.io.jsonparse import parse_document
from mteval_gui.io.outputs import write_output
from mteval_gui.io.textfile import read_bytes, read_text
from mteval_gui.paths import bundled_fonts_dir

PACK_FORMAT = "mteval-review-pack/1"
ANSWERS_FORMAT = "mteval-review-answers/1"
FONT_DIRS_ENV = "MTEVAL_FONT_DIRS"
ANSWER_FIELDS = ("id", "item", "version", "created_at", "adequacy", "fluency", "note", "flagged", "payload",
                 "superseded_by", "undone", "doc")
_ANSWERS_KEYS = {"format", "pack_id", "pack_sha256", "reviewer_id", "task", "exported_at", "answers", "answers_sha256",
                 "answers_hmac"}
INT64_MAX = 2**63 - 1

# Preferred font files per ISO 15924 script (first found wins); any other installed font that
# covers the remaining characters is found by scanning.
SCRIPT_FONTS: dict[str, tuple[str, ...]] = {
    "Latn": ("NotoSans-Regular.ttf", "DejaVuSans.ttf"),
    "Cyrl": ("NotoSans-Regular.ttf", "DejaVuSans.ttf"),
    "Grek": ("NotoSans-Regular.ttf", "DejaVuSans.ttf"),
    "Cans": ("NotoSansCanadianAboriginal-Regular.ttf",),
    "Cher": ("NotoSansCherokee-Regular.ttf",),
    "Ethi": ("NotoSansEthiopic-Regular.ttf",),
    "Arab": ("NotoNaskhArabic-Regular.ttf", "NotoSansArabic-Regular.ttf"),
}
BASE_FONTS = ("NotoSans-Regular.ttf", "DejaVuSans.ttf")
# whole blocks embedded for scripts whose letters a speaker may type in a correction
SCRIPT_REPERTOIRES: dict[str, tuple[range, ...]] = {
    "Cans": (range(0x1400, 0x1680),),  # Unified Canadian Aboriginal Syllabics
    "Cher": (range(0x13A0, 0x1400), range(0xAB70, 0xABC0)),
}


def script_repertoire(scripts: Sequence[str], alphabet: str | None = None) -> str:
    """Characters a pack embeds fonts for beyond its texts: the scripts' blocks, the alphabet in both cases."""
    chars = [chr(c) for script in scripts for block in SCRIPT_REPERTOIRES.get(script, ()) for c in block]
    if alphabet:
        chars += list(alphabet) + list(alphabet.upper())
    return "".join(chars)


def canonical_json(value: Any) -> str:
    """The canonical text hashed for packs and answers (the same as the pack's own ``canon``)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_answers_key() -> str:
    """A pack's secret answers key: 32 random bytes as 64 hex digits."""
    import secrets

    return secrets.token_hex(32)


def answers_hmac(key: str, answers: Any) -> str:
    """HMAC-SHA256 (hex) of the canonical JSON of ``answers`` under the pack's key (as the pack computes it)."""
    return hmac.new(bytes.fromhex(key), canonical_json(answers).encode("utf-8"), hashlib.sha256).hexdigest()


def content_sha256(data: dict[str, Any]) -> str:
    """The pack's content hash: its data without ``content_sha256``."""
    return sha256_text(canonical_json({k: v for k, v in data.items() if k != "content_sha256"}))


# --------------------------------------------------------------------------- fonts


def font_dirs() -> list[Path]:
    """Folders searched for fonts: ``$MTEVAL_FONT_DIRS`` (os.pathsep-separated), else the system's and the bundle's."""
    env = os.environ.get(FONT_DIRS_ENV)
    if env is not None:
        return [Path(p) for p in env.split(os.pathsep) if p]
    dirs = [Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path("/Library/Fonts"),
            Path("/System/Library/Fonts"), Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts"]
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    dirs += [Path(data_home) / "fonts", Path.home() / ".fonts"]
    dirs.append(bundled_fonts_dir())  # a bundle's own fonts (DejaVu Sans) where the system has none
    return dirs


def _font_files() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for d in font_dirs():
        if not d.is_dir():
            continue
        for p in sorted(d.rglob("*")):
            if p.suffix.lower() in (".ttf", ".otf") and p.is_file():
                found.setdefault(p.name, p)
    return found


@dataclass
class EmbeddedFont:
    family: str
    file: str
    characters: int
    woff_bytes: int
    css: str


@dataclass
class FontPlan:
    fonts: list[EmbeddedFont] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # characters no installed font covers

    @property
    def css(self) -> str:
        return "\n".join(f.css for f in self.fonts)

    @property
    def families(self) -> list[str]:
        return [f.family for f in self.fonts]


def _needed(text: str) -> list[str]:
    chars = set(unicodedata.normalize("NFC", text)) | set(unicodedata.normalize("NFD", text))
    return sorted(c for c in chars if not c.isspace() and unicodedata.category(c)[0] != "C")


def plan_fonts(text: str, scripts: Sequence[str]) -> FontPlan:
    """Subset fonts covering every character of ``text``: the scripts' preferred fonts first."""
    from fontTools.ttLib import TTFont

    files = _font_files()
    order: list[Path] = []
    lists = [[files[n] for n in SCRIPT_FONTS.get(script, ()) + BASE_FONTS if n in files]
             for script in [*scripts, "Latn"]]
    for paths in [[p[0] for p in lists if p], [x for p in lists for x in p[1:]]]:  # each script's first choice first
        order += [x for x in paths if x not in order]
    remaining = set(_needed(text))
    plan = FontPlan()
    cmaps: dict[Path, set[int]] = {}

    def coverage(path: Path) -> set[int]:
        if path not in cmaps:
            try:
                with TTFont(str(path), lazy=True, fontNumber=0) as font:
                    cmaps[path] = set(font.getBestCmap() or {})
            except (OSError, ValueError, KeyError, AssertionError):  # an unreadable font is skipped
                cmaps[path] = set()
        return cmaps[path]

    chosen: list[tuple[Path, set[str]]] = []
    for path in order:
        take = {c for c in remaining if ord(c) in coverage(path)}
        if take:
            chosen.append((path, take))
            remaining -= take
        if not remaining:
            break
    if remaining:  # scan the other installed fonts, regular faces first
        others = sorted((p for p in files.values() if p not in order),
                        key=lambda p: (0 if "Regular" in p.name else 1, p.name))
        for path in others:
            take = {c for c in remaining if ord(c) in coverage(path)}
            if take:
                chosen.append((path, take))
                remaining -= take
            if not remaining:
                break
    for i, (path, chars) in enumerate(chosen):
        plan.fonts.append(_subset(path, chars, f"PackSans{i}"))
    plan.missing = sorted(remaining)
    return plan


def _subset(path: Path, chars: Iterable[str], family: str) -> EmbeddedFont:
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools").setLevel(logging.ERROR)  # "table not subset" notices are not for users
    codepoints = sorted({ord(c) for c in chars})
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    font = TTFont(str(path), fontNumber=0)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=codepoints)
    sub.subset(font)
    buf = io.BytesIO()
    font.flavor = "woff"
    font.save(buf)
    data = buf.getvalue()
    b64 = base64.b64encode(data).decode("ascii")
    css = (f"@font-face {{ font-family: \"{family}\"; font-style: normal; font-weight: 400; "
           f"src: url(data:font/woff;base64,{b64}) format(\"woff\"); }}")
    return EmbeddedFont(family, path.name, len(codepoints), len(data), css)


# --------------------------------------------------------------------------- the HTML file


def _asset(name: str) -> str:
    from mteval_gui.paths import resources_dir

    return (resources_dir() / "review_pack" / name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _html_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def ui_text() -> str:
    """Every character the pack's own interface may show (for the font subset)."""
    return _asset("pack.js")


def render_pack(data: dict[str, Any], fonts: FontPlan, title: str) -> str:
    """The pack's HTML text."""
    families = ", ".join(f'"{f}"' for f in fonts.families)
    css = fonts.css + "\n" + _asset("pack.css")
    if families:
        css += f"\nhtml {{ font-family: {families}, \"Noto Sans\", \"DejaVu Sans\", sans-serif; }}\n"
    js = _asset("pack.js")
    blob = json.dumps(data, ensure_ascii=False, sort_keys=True, allow_nan=False).replace("<", "\\u003c")
    keys = json.dumps(keymap_data(), sort_keys=True).replace("<", "\\u003c")  # the key map shared with the desktop
    csp = (f"default-src 'none'; script-src {_csp_hash(js)}; style-src {_csp_hash(css)}; font-src data:; "
           "img-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; frame-src 'none'; "
           "worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n"
        "<meta name=\"referrer\" content=\"no-referrer\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{_html_escape(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
        "<noscript>This review pack needs JavaScript. / Ce paquet d'évaluation a besoin de JavaScript.</noscript>\n"
        "<div id=\"app\"></div>\n"
        f"<script type=\"application/json\" id=\"pack-data\">{blob}</script>\n"
        f"<script type=\"application/json\" id=\"review-keys\">{keys}</script>\n"
        f"<script>{js}</script>\n</body>\n</html>\n"
    )


def write_pack(path: str | Path, html_text: str) -> Path:
    """Write the pack atomically."""
    return write_output(path, html_text, newline="\n")


# --------------------------------------------------------------------------- the answers file


@dataclass
class AnswersFile:
    """An answers file as read: header, its answers (checked by :func:`answer_rows`), defects found."""

    name: str
    pack_id: str | None = None
    pack_sha256: str | None = None
    reviewer_id: str | None = None
    task: str | None = None
    answers_hmac: str | None = None
    answers_sha256: str | None = None
    raw_answers: list[Any] = field(default_factory=list)
    lines: list[int | None] = field(default_factory=list)
    defects: list[Defect] = field(default_factory=list)


def is_answers_file(path: str | Path) -> bool:
    """Whether a JSON file declares the answers format (checked on its first kilobytes).

    Only a regular file is opened (:func:`read_bytes` checks before opening, and opens without
    blocking): a FIFO or a device is not an answers file, and the reader that follows refuses it.
    """
    try:
        head = read_bytes(path, limit=4096).decode("utf-8", errors="replace")
    except InputError:
        return False
    return ANSWERS_FORMAT in head


def read_answers(path: str | Path, *, name: str | None = None) -> AnswersFile:
    """Read an answers file's header and its list of answers (defects collected)."""
    display = name or str(path)
    tf = read_text(path, name=display)
    out = AnswersFile(display, defects=tf.defects)
    if tf.defects:
        return out
    doc = parse_document(tf, key="answers")
    if doc is None:
        return out
    data = doc.data

    def bad(line: int | None, message: str) -> None:
        out.defects.append(Defect(display, line, message))

    if not isinstance(data, dict) or data.get("format") != ANSWERS_FORMAT:
        bad(1, f"not a review-pack answers file (format {ANSWERS_FORMAT!r} expected)")
        return out
    unknown = sorted(set(data) - _ANSWERS_KEYS)
    if unknown:
        bad(1, f"unknown top-level key{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
    for key in ("pack_id", "pack_sha256", "reviewer_id", "task"):
        if not isinstance(data.get(key), str) or not data[key]:
            bad(1, f"missing {key}")
    for key in ("answers_hmac", "answers_sha256"):
        if key in data and not isinstance(data[key], str):
            bad(1, f"{key} must be a text of hex digits")
    if not isinstance(data.get("answers_hmac"), str) and not isinstance(data.get("answers_sha256"), str):
        bad(1, "missing answers_hmac (the pack's signature of the answers)")
    answers = data.get("answers")
    if not isinstance(answers, list):
        bad(1, '"answers" must be a list')
        return out
    if out.defects:
        return out
    out.pack_id, out.pack_sha256 = data["pack_id"], data["pack_sha256"]
    out.reviewer_id, out.task = data["reviewer_id"], data["task"]
    out.answers_hmac, out.answers_sha256 = data.get("answers_hmac"), data.get("answers_sha256")
    out.raw_answers = answers
    out.lines = list(doc.item_lines) if doc.item_lines else [None] * len(answers)
    return out


def answers_digest_problem(read: AnswersFile, key: str | None) -> str | None:
    """Why the answers' digest does not vouch for them (None when it does).

    ``key``: the pack's answers key as the workspace recorded it; None for a pack made before
    packs had keys, whose answers carry a plain sha256.
    """
    if key is not None:
        if read.answers_hmac is None:
            return ("the answers carry no answers_hmac, only a plain answers_sha256 that anyone editing the file "
                    "can recompute; this pack signs its answers with its own key: export them again from the pack")
        if not hmac.compare_digest(answers_hmac(key, read.raw_answers), read.answers_hmac.lower()):
            return ("the answers were changed after the pack exported them (their HMAC does not match "
                    "answers_hmac): export them again from the pack")
        return None
    if read.answers_sha256 is None:
        return "the answers carry no answers_sha256 (this pack was made before packs signed their answers)"
    if sha256_text(canonical_json(read.raw_answers)) != read.answers_sha256:
        return ("the answers were changed after the pack exported them (their sha256 does not match "
                "answers_sha256): export them again from the pack")
    return None


def _whole(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= INT64_MAX


def answer_rows(read: AnswersFile) -> tuple[list[tuple[int | None, dict[str, Any]]], list[Defect]]:
    """The answers whose fields have the types the pack writes, with their lines, and the defects of the others.

    ``id``, ``version`` (from 1) and ``item`` (from 0) are whole numbers within 64 bits,
    ``superseded_by`` one or null; ``adequacy``/``fluency`` whole numbers or null; ``flagged``
    and ``undone`` JSON booleans (``"false"`` is text, which would read as true: refused);
    ``note`` and ``created_at`` text or null; ``payload`` an object.
    """
    rows: list[tuple[int | None, dict[str, Any]]] = []
    defects: list[Defect] = []
    for line, item in zip(read.lines, read.raw_answers, strict=False):
        problems: list[str] = []
        if not isinstance(item, dict):
            defects.append(Defect(read.name, line, "an answer must be a JSON object"))
            continue
        unknown = sorted(set(item) - set(ANSWER_FIELDS))
        if unknown:
            problems.append(f"unknown answer field{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
        missing = [k for k in ("id", "item", "version") if k not in item]
        if missing:
            problems.append(f"answer needs whole numbers for {', '.join(missing)}")
        for key, low in (("id", 1), ("item", 0), ("version", 1), ("superseded_by", 1), ("doc", 0)):
            value = item.get(key)
            if key in item and not (value is None and key == "superseded_by") and not _whole(value, low):
                what = "a whole number" if key != "superseded_by" else "a whole number or null"
                problems.append(f"{key} {_shown(value)} is not {what} from {low} to {INT64_MAX}")
        for key in ("adequacy", "fluency"):
            value = item.get(key)
            if value is not None and not _whole(value, 0):
                problems.append(f"{key} {_shown(value)} is not a whole number or null")
        for key in ("flagged", "undone"):
            if key in item and not isinstance(item[key], bool):
                problems.append(f"{key} must be true or false (a JSON boolean), not {_shown(item[key])}")
        for key in ("note", "created_at"):
            if item.get(key) is not None and not isinstance(item[key], str):
                problems.append(f"{key} must be a text or null, not {_shown(item[key])}")
        if item.get("payload") is not None and not isinstance(item["payload"], dict):
            problems.append(f"payload must be an object, not {_shown(item['payload'])}")
        defects += [Defect(read.name, line, p) for p in problems]
        if not problems:
            rows.append((line, item))
    return rows, defects


def _shown(value: Any) -> str:
    """A value as JSON in a message, cut short."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."
