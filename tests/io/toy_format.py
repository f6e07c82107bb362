"""A toy input format for the registry tests: pipe-separated ``id|source|reference`` lines (``.psv``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mteval_gui.io import formats
from mteval_gui.io.detect import Preview
from mteval_gui.io.formats import InputFormat, Parsed, Source
from mteval_gui.io.records import make_entry, make_output


def _corpus(src: Source) -> Parsed:
    entries, lines = [], {}
    for i, line in enumerate(src.text.lines(), 1):
        if i == 1 or not line.strip():
            continue
        cells = line.split("|")
        if len(cells) != 3:
            src.defects.add(i, f"expected id|source|reference, got {len(cells)} cells")
            continue
        entries.append(make_entry(cells[0], cells[1], cells[2]))
        lines[cells[0]] = i
    return Parsed({}, entries, lines)


def _preview(path: Path, n: int) -> Preview:
    rows = [dict(zip(("id", "source", "reference"), ln.split("|"), strict=False))
            for ln in path.read_text(encoding="utf-8").splitlines()[1:n + 1]]
    return Preview(path, "psv", "corpus", rows=rows, total=len(rows))


def _report_run(src: Source) -> Parsed:
    """``# corpus: NAME`` then ``id|source|reference|predicted`` lines: a run that carries its entries."""
    first = src.text.lines()[0]
    if first.startswith("# corpus: "):
        src.hints["corpus_path"] = first.removeprefix("# corpus: ").strip()
    outputs, lines = [], {}
    for i, line in enumerate(src.text.lines()[2:], 3):
        cells = line.split("|")
        outputs.append(make_output(cells[0], cells[3]))
        lines[cells[0]] = i
    return Parsed({"model_slug": "toy"}, outputs, lines)


def _report_corpus(src: Source) -> Parsed:
    entries, lines = [], {}
    for i, line in enumerate(src.text.lines()[2:], 3):
        cells = line.split("|")
        entries.append(make_entry(cells[0], cells[1], cells[2]))
        lines[cells[0]] = i
    return Parsed({"corpus_id": "toy-corpus"}, entries, lines, guessed_pair=("fra", "ewe"))


TOY_REPORT = InputFormat("psv-report", "Pipe-separated report", (".psvr",), None, None, corpus=_report_corpus,
                         run=_report_run, carries_corpus=True)

TOY = InputFormat("psv", "Pipe-separated", (".psv",), lambda head: head.startswith("id|source|"), _preview,
                  corpus=_corpus)


@contextmanager
def toy_registered() -> Iterator[InputFormat]:
    formats.register(TOY, before="text")
    formats.register(TOY_REPORT, before="text")
    try:
        yield TOY
    finally:
        formats.unregister(TOY.name)
        formats.unregister(TOY_REPORT.name)
