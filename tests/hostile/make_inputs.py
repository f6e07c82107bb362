"""Make the hostile-input corpus: small malformed files for every importer.

``make_inputs(folder)`` writes every file into ``folder`` (nothing big is kept in the
repository: the 100,000-level documents are made here, at test time) and returns one
:class:`HostileInput` per file, naming the importer it is meant for. Every input must be
refused with located defects; :func:`make_controls` makes one valid file per importer, so
the harness is shown to accept what it should.

Run as a script to list what it makes: ``python tests/hostile/make_inputs.py OUTDIR``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# the workspace every input is imported into holds this corpus, run and reviewer
CORPUS_ID = "hc"
ENTRY_IDS = ("1", "2", "3")
RUN_ID = "base"
REVIEWER_ID = "ana"


@dataclass(frozen=True)
class HostileInput:
    name: str
    target: str  # corpus | run | glossary | judgments | responses | suite
    path: Path
    options: dict[str, str] = field(default_factory=dict)


# ----------------------------------------------------------------------------- defects of a JSON record
#
# A record template has four slots: the id, a text value, an arbitrary JSON value kept as
# extra data, and a duplicated key. A defect changes one slot, or the bytes of the file.

@dataclass(frozen=True)
class Slots:
    id: str = '"1"'
    text: str = '"Hello"'
    extra: str = "1"
    dup: bool = False


def _deep_array(n: int) -> str:
    return "[" * n + "]" * n


def _deep_object(n: int) -> str:
    return '{"a":' * n + "1" + "}" * n


def _deep_mixed(n: int) -> str:
    return '[{"a":' * n + "1" + "}]" * n


JSON_SLOT_DEFECTS: dict[str, Slots] = {
    "lone-high-surrogate": Slots(text='"x\\ud800y"'),
    "lone-low-surrogate": Slots(text='"x\\udc00"'),
    "reversed-surrogates": Slots(text='"\\udc00\\ud800"'),
    "surrogate-in-key": Slots(extra='{"\\udbff": 1}'),
    "nul-escape": Slots(text='"a\\u0000b"'),
    "raw-nul-in-string": Slots(text='"a\x00b"'),
    "nan": Slots(extra="NaN"),
    "infinity": Slots(extra="Infinity"),
    "minus-infinity": Slots(extra="-Infinity"),
    "overflow-exponent": Slots(extra="1e999"),
    "overflow-mantissa": Slots(extra="1" + "0" * 400 + ".5"),
    "digits-5000-id": Slots(id="7" * 5000),
    "digits-4301-id": Slots(id="9" * 4301),
    "id-5000-characters": Slots(id='"' + "a" * 5000 + '"'),
    "id-300-characters": Slots(id='"' + "b" * 300 + '"'),
    "deep-array-100000": Slots(extra=_deep_array(100_000)),
    "deep-object-100000": Slots(extra=_deep_object(100_000)),
    "deep-mixed-50000": Slots(extra=_deep_mixed(50_000)),
    "deep-array-500": Slots(extra=_deep_array(500)),
    "deep-object-120": Slots(extra=_deep_object(120)),
    "duplicate-key": Slots(dup=True),
    "duplicate-nested-key": Slots(extra='{"k": 1, "k": 2}'),
    "duplicate-escaped-key": Slots(extra='{"k": 1, "\\u006b": 2}'),
}

ByteDefect = Callable[[bytes], bytes]


def _replace_once(old: bytes, new: bytes) -> ByteDefect:
    def apply(data: bytes) -> bytes:
        assert old in data
        return data.replace(old, new, 1)
    return apply


JSON_BYTE_DEFECTS: dict[str, ByteDefect] = {
    "invalid-utf8": _replace_once(b"Hello", b"Hel\xfflo"),
    "utf8-encoded-surrogate": _replace_once(b"Hello", b"He\xed\xa0\x80llo"),
    "overlong-utf8": _replace_once(b"Hello", b"He\xc0\xafllo"),
    "latin1-file": _replace_once(b"Hello", "Héllo".encode("latin-1")),
    "truncated": lambda d: d[: len(d) * 3 // 5],
    "empty": lambda d: b"",
    "bom-only": lambda d: b"\xef\xbb\xbf",
    "not-json": lambda d: b"<html><body>error 502</body></html>\n",
    "trailing-garbage": lambda d: d.rstrip() + b" ]]\n",
    "single-quotes": lambda d: d.replace(b'"', b"'"),
    "scalar-root": lambda d: b'"just a string"\n',
    "utf16-file": lambda d: d.decode("utf-8").encode("utf-16"),
}


# ----------------------------------------------------------------------------- record templates per format

def _dup(s: Slots, key: str, value: str) -> str:
    return f', "{key}": {value}' if s.dup else ""


def corpus_json(s: Slots) -> str:
    return (
        '[\n {"id": %s, "source": %s, "reference": "tânisi", "metadata": {"x": %s}%s},\n'
        ' {"id": "2", "source": "Good day", "reference": "ê-miywâk"}\n]\n'
    ) % (s.id, s.text, s.extra, _dup(s, "source", '"y"'))


def corpus_jsonl(s: Slots) -> str:
    return ('{"id": %s, "source": %s, "reference": "tânisi", "note": %s%s}\n'
            '{"id": "2", "source": "Good day"}\n') % (s.id, s.text, s.extra, _dup(s, "reference", '"z"'))


def run_jsonl(s: Slots) -> str:
    return ('{"run": {"model": "m"}}\n{"id": %s, "predicted": %s, "note": %s%s}\n'
            '{"id": "2", "predicted": "ê-miywâk"}\n') % (s.id, s.text, s.extra, _dup(s, "predicted", '"other"'))


def run_json(s: Slots) -> str:
    return ('{"run": {"model": "m", "corpus_id": "%s"},\n "outputs": [\n  {"id": %s, "predicted": %s, "note": %s%s},\n'
            '  {"id": "3", "predicted": "x"}\n ]\n}\n') % (CORPUS_ID, s.id, s.text, s.extra, _dup(s, "id", '"2"'))


def judgments_json(s: Slots) -> str:
    return ('{"format": "mteval-judgments/1", "reviewers": [],\n "judgments": [\n'
            '  {"reviewer_id": "%s", "run_id": "%s", "entry_id": %s, "task": "A", "adequacy": 5%s, "note": %s,'
            ' "payload": {"x": %s}}\n ]\n}\n') % (REVIEWER_ID, RUN_ID, s.id, _dup(s, "adequacy", "1"), s.text, s.extra)


def responses_json(s: Slots) -> str:
    return ('[\n {"test_id": %s, "response": %s, "tool_calls": [%s]%s},\n {"test_id": "g2", "response": "ɖe"}\n]\n'
            ) % (s.id, s.text, s.extra, _dup(s, "response", '"other"'))


def responses_jsonl(s: Slots) -> str:
    return ('{"model": "m"}\n{"test_id": %s, "response": %s, "tool_calls": [%s]%s}\n'
            ) % (s.id, s.text, s.extra, _dup(s, "test_id", '"g9"'))


def glossary_json(s: Slots) -> str:
    # a glossary holds no free JSON: the extra slot is a target (a number there is refused too)
    return '{\n "hello": [%s, "tânisi"]%s,\n "x": [%s]\n}\n' % (s.text, _dup(s, "hello", '["y"]'), s.extra)


def suite_json(s: Slots) -> str:
    return ('[\n {"id": %s, "prompt": %s, "eval_method": "exact_match", "expected": "a", "notes": %s%s}\n]\n'
            ) % (s.id, s.text, s.extra, _dup(s, "expected", '"b"'))


# format name -> (importer, file suffix, template, slot defects that do not apply)
JSON_FORMATS: dict[str, tuple[str, str, Callable[[Slots], str], frozenset[str]]] = {
    "corpus-json": ("corpus", ".json", corpus_json, frozenset()),
    "corpus-jsonl": ("corpus", ".jsonl", corpus_jsonl, frozenset()),
    "run-jsonl": ("run", ".jsonl", run_jsonl, frozenset()),
    "run-json": ("run", ".json", run_json, frozenset()),
    "judgments-json": ("judgments", ".json", judgments_json, frozenset()),
    "responses-json": ("responses", ".json", responses_json, frozenset({"id-300-characters"})),
    "responses-jsonl": ("responses", ".jsonl", responses_jsonl, frozenset({"id-300-characters"})),
    # keys of a glossary are terms: its slots are the targets and one more term's value
    "glossary-json": ("glossary", ".json", glossary_json,
                      frozenset({"digits-5000-id", "digits-4301-id", "id-5000-characters", "id-300-characters"})),
    # a suite's test ids are checked by the suite rules (shown, scored 0), not refused
    "suite-json": ("suite", ".json", suite_json, frozenset({"id-300-characters"})),
}
# byte defects that are not defects for a format (a JSONL file may be empty of responses)
BYTE_SKIPS = {"responses-jsonl": frozenset({"empty", "bom-only"}), "responses-json": frozenset({"empty", "bom-only"})}

# defects of one format only: the 64-bit range of the fields stored as integers, language codes
EXTRA_JSON: dict[str, tuple[str, str, str]] = {
    "corpus-difficulty-beyond-int64": (
        "corpus",
        ".json",
        '[{"id": "1", "source": "x", "difficulty": 9223372036854775808}]',
    ),
    "corpus-target-is-a-path": (
        "corpus",
        ".json",
        json.dumps(
            {
                "corpus_id": "evil",
                "language_pair": {"source": "eng", "target": "../../evil/zzq"},
                "entries": [{"id": "1", "source": "x"}],
            }
        ),
    ),
    "corpus-pair-string-path": (
        "corpus",
        ".jsonl",
        json.dumps({"corpus": {"language_pair": "eng-../zzq"}}) + '\n{"id": "1", "source": "x"}\n',
    ),
    "corpus-language-not-a-string": (
        "corpus",
        ".json",
        json.dumps({"language_pair": {"source": "eng", "target": ["crk"]}, "entries": [{"id": "1", "source": "x"}]}),
    ),
    "corpus-duplicate-root-key": (
        "corpus",
        ".json",
        '{"corpus_id": "a", "entries": [{"id": "1", "source": "x"}], "corpus_id": "b"}',
    ),
    "corpus-id-with-tab": ("corpus", ".json", '[{"id": "a\\tb", "source": "x"}]'),
    "report-target-code-path": (
        "corpus",
        ".json",
        json.dumps(
            {
                "run_id": "r",
                "config": {"source_lang": "English", "target_lang_code": "../../x"},
                "overall": {},
                "entries": [{"id": "1", "source": "x", "expected": "y", "predicted": "y"}],
            }
        ),
    ),
    "report-nan-in-overall": (
        "run",
        ".json",
        '{"run_id": "r", "config": {"corpus_path": "hc.json"}, "overall": {"chrf": NaN},'
        ' "entries": [{"id": "1", "source": "x", "expected": "y", "predicted": "y"}]}',
    ),
    "report-duplicate-predicted": (
        "run",
        ".json",
        '{"run_id": "r", "config": {"corpus_path": "hc.json"}, "overall": {},'
        ' "entries": [{"id": "1", "source": "x", "predicted": "y", "predicted": "z"}]}',
    ),
    "run-usage-beyond-int64": (
        "run",
        ".jsonl",
        '{"id": "1", "predicted": "x", "usage": {"prompt_tokens": 9223372036854775808}}\n',
    ),
    "run-latency-huge-integer": ("run", ".jsonl", '{"id": "1", "predicted": "x", "latency_s": ' + "9" * 40 + "}\n"),
    "run-run-id-5000-characters": (
        "run",
        ".jsonl",
        json.dumps({"run": {"run_id": "r" * 5000}}) + '\n{"id": "1", "predicted": "x"}\n',
    ),
    "run-unknown-id": ("run", ".jsonl", '{"id": "nope", "predicted": "x"}\n'),
    "judgments-version-beyond-int64": (
        "judgments",
        ".json",
        json.dumps(
            {
                "reviewers": [],
                "judgments": [
                    {
                        "judgment_id": 1,
                        "reviewer_id": REVIEWER_ID,
                        "run_id": RUN_ID,
                        "entry_id": "1",
                        "adequacy": 3,
                        "version": 2**63,
                    }
                ],
            }
        ),
    ),
    "judgments-id-beyond-int64": (
        "judgments",
        ".json",
        json.dumps(
            {
                "reviewers": [],
                "judgments": [
                    {"judgment_id": 2**64, "reviewer_id": REVIEWER_ID, "run_id": RUN_ID, "entry_id": "1", "adequacy": 3}
                ],
            }
        ),
    ),
    "judgments-nan-payload": (
        "judgments",
        ".json",
        '{"reviewers": [], "judgments": [{"reviewer_id": "ana", "run_id": "base",'
        ' "entry_id": "1", "task": "C", "payload": {"word": "w", "score": NaN}}]}',
    ),
    "judgments-reviewer-language-path": (
        "judgments",
        ".json",
        json.dumps({"reviewers": [{"reviewer_id": "new", "name": "N", "languages": ["../../etc"]}], "judgments": []}),
    ),
    "judgments-reviewer-id-5000": (
        "judgments",
        ".json",
        json.dumps({"reviewers": [{"reviewer_id": "r" * 5000, "name": "N"}], "judgments": []}),
    ),
    "judgments-adequacy-as-float-nan-text": (
        "judgments",
        ".json",
        '[{"reviewer_id": "ana", "run_id": "base", "entry_id": "1", "adequacy": 1e999}]',
    ),
    "responses-test-id-5000": ("responses", ".json", json.dumps([{"test_id": "t" * 5000, "response": "x"}])),
    "glossary-duplicate-term": ("glossary", ".json", '{"hello": ["a"], "hello": ["b"]}'),
}


# ----------------------------------------------------------------------------- tables and text

def _table(sep: str, rows: list[list[str]]) -> str:
    return "".join(sep.join(r) + "\n" for r in rows)


HEADER = ["id", "source", "reference", "metadata"]
GOOD_ROWS = [["1", "Hello", "tânisi", "{}"], ["2", "Good day", "ê-miywâk", "{}"]]

TABLE_DEFECTS: dict[str, Callable[[str], bytes]] = {
    "missing-column": lambda sep: _table(sep, [HEADER, ["1", "Hello", "tânisi"], GOOD_ROWS[1]]).encode(),
    "extra-column": lambda sep: _table(sep, [HEADER, ["1", "Hello", "tânisi", "{}", "surplus"]]).encode(),
    "raw-nul": lambda sep: _table(sep, [HEADER, ["1", "He\x00llo", "tânisi", "{}"]]).encode(),
    "invalid-utf8": lambda sep: _table(sep, [HEADER, GOOD_ROWS[0]]).encode().replace(b"Hello", b"He\xffllo"),
    "utf8-encoded-surrogate": lambda sep: (
        _table(sep, [HEADER, GOOD_ROWS[0]]).encode().replace(b"Hello", b"\xed\xb0\x80")
    ),
    "cell-nan": lambda sep: _table(sep, [HEADER, ["1", "Hello", "tânisi", '{"v": NaN}']]).encode(),
    "cell-infinity": lambda sep: _table(sep, [HEADER, ["1", "Hello", "tânisi", '{"v": -Infinity}']]).encode(),
    "cell-duplicate-key": lambda sep: _table(sep, [HEADER, ["1", "Hello", "tânisi", '{"k": 1, "k": 2}']]).encode(),
    "cell-lone-surrogate": lambda sep: _table(sep, [HEADER, ["1", "Hello", "tânisi", '{"k": "\\ud800"}']]).encode(),
    "cell-deep": lambda sep: _table(
        sep, [HEADER, ["1", "Hello", "tânisi", '{"k": ' + _deep_array(100_000) + "}"]]
    ).encode(),
    "cell-digits-5000": lambda sep: _table(
        sep, [HEADER, ["1", "Hello", "tânisi", '{"k": ' + "1" * 5000 + "}"]]
    ).encode(),
    "id-5000-characters": lambda sep: _table(sep, [HEADER, ["i" * 5000, "Hello", "tânisi", "{}"]]).encode(),
    "duplicate-id": lambda sep: _table(sep, [HEADER, GOOD_ROWS[0], GOOD_ROWS[0]]).encode(),
    "empty-source": lambda sep: _table(sep, [HEADER, ["1", " ", "tânisi", "{}"]]).encode(),
    "header-only": lambda sep: _table(sep, [HEADER]).encode(),
    "no-id-column": lambda sep: _table(sep, [["source", "reference"], ["Hello", "tânisi"]]).encode(),
    "duplicate-column": lambda sep: _table(sep, [["id", "source", "source"], ["1", "a", "b"]]).encode(),
    "difficulty-beyond-int64": lambda sep: _table(sep, [["id", "source", "difficulty"], ["1", "a", "9" * 30]]).encode(),
}
CSV_ONLY: dict[str, bytes] = {
    "unclosed-quote": b'id,source,reference\n1,"Hello,tanisi\n2,Good day,miywak\n3,Bye,x\n',
    "unclosed-quote-last-row": b'id,source,reference\n1,Hello,tanisi\n2,"Good day,miywak\n',
    "text-after-closing-quote": b'id,source,reference\n1,"Hello"x,tanisi\n',
}

JUDGMENT_CSV: dict[str, bytes] = {
    "unclosed-quote": b'reviewer_id,run_id,entry_id,note\nana,base,1,"never closed\nana,base,2,fine\n',
    "version-5000-digits": b"reviewer_id,run_id,entry_id,version,judgment_id\nana,base,1," + b"9" * 5000 + b",1\n",
    "version-beyond-int64": (b"reviewer_id,run_id,entry_id,adequacy,version,judgment_id\n"
                             b"ana,base,1,3,9223372036854775808,1\n"),
    "payload-nan": b'reviewer_id,run_id,entry_id,task,payload\nana,base,1,C,"{""word"": ""w"", ""n"": NaN}"\n',
    "payload-duplicate-key": (b'reviewer_id,run_id,entry_id,task,payload\n'
                              b'ana,base,1,C,"{""word"": ""w"", ""word"": ""v""}"\n'),
    "payload-deep": b'reviewer_id,run_id,entry_id,task,payload\nana,base,1,B,"'
    + b'{""a"":' * 200
    + b"1"
    + b"}" * 200
    + b'"\n',
    "missing-cell": b"reviewer_id,run_id,entry_id,adequacy\nana,base,1\n",
    "raw-nul": b"reviewer_id,run_id,entry_id,note\nana,base,1,a\x00b\n",
    "reviewer-language-path": b"record,reviewer_id,name,languages\nreviewer,new,N,../../x\n",
    "adequacy-out-of-range": b"reviewer_id,run_id,entry_id,adequacy\nana,base,1,6\n",
}

GLOSSARY_TSV: dict[str, bytes] = {
    "raw-nul": "hello\ttânisi\x00\n".encode(),
    "invalid-utf8": b"hello\tt\xe2nisi\n",
    "missing-target": b"hello\n",
    "duplicate-term": b"hello\ta\nhello\tb\n",
    "three-cells": b"hello\ta\tb\n",
}

TEXT_PAIRS: dict[str, tuple[bytes, bytes]] = {
    "raw-nul": (b"Hello\nGood\x00 day\nBye\n", "tânisi\nê-miywâk\nêkosi\n".encode()),
    "invalid-utf8-reference": (b"Hello\nGood day\nBye\n", b"t\xe2nisi\nmiywak\nekosi\n"),
    "line-count-mismatch": (b"Hello\nGood day\nBye\n", "tânisi\nê-miywâk\n".encode()),
    "empty-source-line": (b"Hello\n\nBye\n", "tânisi\nê-miywâk\nêkosi\n".encode()),
    "utf16-source": ("Hello\nGood day\n".encode("utf-16"), b"a\nb\n"),
}


# ----------------------------------------------------------------------------- writing

def _write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def _suite_folder(folder: Path, name: str, data: bytes) -> Path:
    d = folder / f"suite-{name}"
    d.mkdir()
    _write(d / "grammar.json", b'[{"id": "g1", "prompt": "p", "eval_method": "exact_match", "expected": "a"}]\n')
    _write(d / "reasoning.json", data)
    return d


def make_inputs(folder: str | Path) -> list[HostileInput]:
    """Write every hostile input under ``folder`` (an empty folder); returns them."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out: list[HostileInput] = []

    def add(name: str, target: str, path: Path, **options: str) -> None:
        out.append(HostileInput(name, target, path, dict(options)))

    for fmt, (target, suffix, template, skip) in JSON_FORMATS.items():
        for dname, slots in JSON_SLOT_DEFECTS.items():
            if dname in skip:
                continue
            data = template(slots)
            name = f"{fmt}.{dname}"
            if target == "suite":
                add(name, target, _suite_folder(folder, name, data.encode("utf-8")))
            else:
                add(name, target, _write(folder / f"{name}{suffix}", data))
        good = template(Slots()).encode("utf-8")
        for dname, mutate in JSON_BYTE_DEFECTS.items():
            if dname in BYTE_SKIPS.get(fmt, frozenset()):
                continue
            name = f"{fmt}.{dname}"
            if target == "suite":
                add(name, target, _suite_folder(folder, name, mutate(good)))
            else:
                add(name, target, _write(folder / f"{name}{suffix}", mutate(good)))
    for name, (target, suffix, text) in EXTRA_JSON.items():
        add(name, target, _write(folder / f"{name}{suffix}", text))
    for sep, suffix in (("\t", ".tsv"), (",", ".csv")):
        for dname, make in TABLE_DEFECTS.items():
            name = f"corpus-{suffix[1:]}.{dname}"
            add(name, "corpus", _write(folder / f"{name}{suffix}", make(sep)))
    for dname, data in CSV_ONLY.items():
        add(f"corpus-csv.{dname}", "corpus", _write(folder / f"corpus-csv.{dname}.csv", data))
    for dname, data in JUDGMENT_CSV.items():
        add(f"judgments-csv.{dname}", "judgments", _write(folder / f"judgments-csv.{dname}.csv", data))
    for dname, data in GLOSSARY_TSV.items():
        add(f"glossary-tsv.{dname}", "glossary", _write(folder / f"glossary-tsv.{dname}.tsv", data))
    for dname, (src, ref) in TEXT_PAIRS.items():
        s = _write(folder / f"text.{dname}.en", src)
        r = _write(folder / f"text.{dname}.crk", ref)
        add(f"corpus-text.{dname}", "corpus", s, ref_path=str(r))

    # files that are not regular files: each must be refused at once, never read
    for target, suffix in (("corpus", ".jsonl"), ("corpus", ".json"), ("run", ".jsonl"), ("glossary", ".tsv"),
                           ("judgments", ".json"), ("responses", ".jsonl")):
        fifo = folder / f"fifo-{target}{suffix}"
        os.mkfifo(fifo)
        add(f"{target}.fifo{suffix}", target, fifo)
        dev = folder / f"devzero-{target}{suffix}"
        dev.symlink_to("/dev/zero")
        add(f"{target}.dev-zero{suffix}", target, dev)
    for target, suffix in (("corpus", ".json"), ("run", ".jsonl"), ("glossary", ".json"), ("judgments", ".csv")):
        d = folder / f"folder-{target}{suffix}"
        d.mkdir()
        add(f"{target}.folder{suffix}", target, d)
    dangling = folder / "dangling.json"
    dangling.symlink_to(folder / "no-such-target.json")
    add("corpus.dangling-symlink", "corpus", dangling)
    fifo_suite = folder / "suite-with-fifo"
    fifo_suite.mkdir()
    _write(
        fifo_suite / "grammar.json", b'[{"id": "g1", "prompt": "p", "eval_method": "exact_match", "expected": "a"}]\n'
    )
    os.mkfifo(fifo_suite / "reasoning.json")
    add("suite.fifo-category-file", "suite", fifo_suite)
    return out


def make_controls(folder: str | Path) -> list[HostileInput]:
    """One valid file per importer (each must be accepted)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for fmt, (target, suffix, template, _) in JSON_FORMATS.items():
        data = template(Slots(extra='"ok"') if target == "glossary" else Slots())
        if target == "suite":
            out.append(HostileInput(f"{fmt}.valid", target, _suite_folder(folder, fmt, data.encode("utf-8"))))
        else:
            out.append(HostileInput(f"{fmt}.valid", target, _write(folder / f"{fmt}.valid{suffix}", data)))
    for sep, suffix in (("\t", ".tsv"), (",", ".csv")):
        out.append(
            HostileInput(
                f"corpus-{suffix[1:]}.valid",
                "corpus",
                _write(folder / f"corpus-{suffix[1:]}.valid{suffix}", _table(sep, [HEADER, *GOOD_ROWS])),
            )
        )
    return out


if __name__ == "__main__":  # pragma: no cover
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/hostile/make_inputs.py OUTDIR")
    made = make_inputs(sys.argv[1])
    for item in made:
        print(f"{item.target:<10} {item.name}")
    print(f"{len(made)} inputs in {sys.argv[1]}")
