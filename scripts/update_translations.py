"""Refresh the French translation of the GUI.

    python scripts/update_translations.py          # lupdate (keeps existing translations) + lrelease
    python scripts/update_translations.py --check  # exit 1 if a string has no translation

French typography: a narrow no-break space (U+202F) before ``:``, ``;``, ``?`` and ``!``. The script
puts it in place of an ordinary or no-break space there (:func:`french_spacing`) before compiling;
``--check`` reports a translation that still has one.

``resources/translations/mteval_gui_fr.ts`` is the translation source (edit it with Qt
Linguist, ``pyside6-linguist``); ``mteval_gui_fr.qm`` is the compiled file the application
loads. Both tools come with PySide6 (``pyside6-lupdate``, ``pyside6-lrelease``).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TS = REPO / "resources" / "translations" / "mteval_gui_fr.ts"
QM = TS.with_suffix(".qm")


def untranslated(ts: Path = TS) -> list[str]:
    out = []
    for ctx in ET.parse(ts).getroot().iter("context"):
        name = ctx.findtext("name")
        for m in ctx.iter("message"):
            tr = m.find("translation")
            kind = tr.get("type") if tr is not None else None
            if kind in ("obsolete", "vanished"):
                continue
            forms = [f.text for f in tr.iter("numerusform")] if tr is not None else []
            text = " ".join(f or "" for f in forms) if forms and all((f or "").strip() for f in forms) else (
                "" if forms else (tr.text if tr is not None else ""))
            if tr is None or kind == "unfinished" or not (text or "").strip():
                out.append(f"{name}: {m.findtext('source')}")
    return out


NARROW_NBSP = "\u202f"
# an ordinary or a no-break space (as lupdate writes it: &#xa0;) before : ; ? ! ending a word
_SPACE_BEFORE_PUNCT = re.compile(r"(?:[ \u00a0]|&#xa0;)(?=[:;?!](?:\s|$|[<&)\]\d{]))")
_TRANSLATED = re.compile(r"(<(?:translation|numerusform)\b[^>]*>)(.*?)(</(?:translation|numerusform)>)", re.S)


def french_spacing(text: str) -> str:
    """``text`` with a narrow no-break space before ``: ; ? !`` where it had a space (French typography)."""
    return _SPACE_BEFORE_PUNCT.sub(NARROW_NBSP, text)


def apply_french_spacing(ts: Path = TS) -> int:
    """Apply :func:`french_spacing` to every translation of the .ts file; returns the translations changed."""
    raw = ts.read_text(encoding="utf-8")
    changed = 0

    def one(m: re.Match[str]) -> str:
        nonlocal changed
        fixed = french_spacing(m.group(2))
        changed += fixed != m.group(2)
        return m.group(1) + fixed + m.group(3)

    out = _TRANSLATED.sub(one, raw)
    if changed:
        ts.write_text(out, encoding="utf-8")
    return changed


def spacing_problems(ts: Path = TS) -> list[str]:
    """Translations with an ordinary or no-break space before ``: ; ? !``."""
    return [m.group(2) for m in _TRANSLATED.finditer(ts.read_text(encoding="utf-8"))
            if french_spacing(m.group(2)) != m.group(2)]


def fill(translations: dict[tuple[str, str], str | tuple[str, ...]], ts: Path = TS) -> int:
    """Set the translation of (context, source) pairs in the .ts file; returns how many were set.

    A tuple sets the plural forms of a ``tr(text, "", n)`` message (French: singular, plural)."""
    tree = ET.parse(ts)
    n = 0
    for ctx in tree.getroot().iter("context"):
        name = ctx.findtext("name")
        for m in ctx.iter("message"):
            text = translations.get((name, m.findtext("source")))
            if text is None:
                continue
            tr = m.find("translation")
            if tr is None:
                tr = ET.SubElement(m, "translation")
            if isinstance(text, tuple):
                for f in list(tr):
                    tr.remove(f)
                for form in text:
                    ET.SubElement(tr, "numerusform").text = form
            else:
                tr.text = text
            tr.attrib.pop("type", None)
            n += 1
    with ts.open("wb") as fh:
        fh.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(fh, encoding="utf-8", xml_declaration=False)
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="only report untranslated strings")
    args = ap.parse_args(argv)
    if not args.check:
        sources = sorted(str(p) for p in (REPO / "mteval_gui" / "qt").glob("*.py"))
        subprocess.run(
            [
                "pyside6-lupdate",
                *sources,
                "-no-obsolete",
                "-locations",
                "none",
                "-target-language",
                "fr_FR",
                "-ts",
                str(TS),
            ],
            check=True,
        )
        apply_french_spacing()
        subprocess.run(["pyside6-lrelease", str(TS), "-qm", str(QM)], check=True)
    missing = untranslated()
    for m in missing:
        print("untranslated:", m)
    spacing = spacing_problems()
    for text in spacing:
        print("space before : ; ? ! (want a narrow no-break space):", text)
    return 1 if missing or spacing else 0


if __name__ == "__main__":
    sys.exit(main())
