"""The built-in input formats, in detection order (SPEC §1).

Each entry is the whole of a format for the rest of the application: the CLI's ``--format``
choices, the import dialog's format list and file filter, detection, preview and the readers
all come from here through :mod:`mteval_gui.io.formats`.
"""

from __future__ import annotations

from mteval_gui.io import corpus, detect, glossary, runs
from mteval_gui.io.formats import InputFormat

FORMATS: tuple[InputFormat, ...] = (
    InputFormat("jsonl", "JSON lines", (".jsonl", ".ndjson"), detect.looks_like_jsonl, detect.jsonl_preview,
                corpus=corpus.jsonl_corpus, run=runs.jsonl_run),
    # a .json file that looks like a harness TestReport; its runs carry their corpus
    InputFormat("harness-report", "Harness report", (".json",), detect.looks_like_report, detect.json_preview,
                corpus=corpus.json_corpus, run=runs.json_run, carries_corpus=True),
    InputFormat("json", "JSON", (".json",), detect.looks_like_json, detect.json_preview,
                corpus=corpus.json_corpus, run=runs.json_run, glossary=glossary.json_glossary),
    InputFormat("tsv", "TSV", (".tsv", ".tab"), detect.looks_like_tsv, detect.tsv_preview,
                corpus=corpus.tsv_corpus, glossary=glossary.tsv_glossary, fallback=True),
    InputFormat("csv", "CSV", (".csv",), detect.looks_like_csv, detect.csv_preview, corpus=corpus.csv_corpus),
    # a .txt file may hold JSON or a table: its suffix decides nothing
    InputFormat("text", "Plain text", (".txt",), None, detect.text_preview,
                corpus=corpus.text_corpus, run=runs.text_run, claims_suffix=False, fallback=True, aligned=True),
)
