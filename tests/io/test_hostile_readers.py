"""Hostile input to the readers: every refusal is a located defect, never a traceback or a silent change."""

from __future__ import annotations

import json
import os
import threading

import pytest

from mteval_gui.errors import InputError
from mteval_gui.io import read_corpus, read_glossary, read_run
from mteval_gui.io.benchmark import read_responses
from mteval_gui.io.jsonparse import MAX_DEPTH, escape_problems, first_problem, loads
from mteval_gui.io.judgments import read_judgments
from tests.benchmarks.helpers import read_suite


def write(path, text):
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def defects(fn, *args, **kwargs) -> list[str]:
    with pytest.raises(InputError) as info:
        fn(*args, **kwargs)
    return [str(d) for d in info.value.defects]


def corpus(path, **kw):
    return read_corpus(path, source_lang=kw.pop("source_lang", "eng"), target_lang=kw.pop("target_lang", "crk"), **kw)


# ----------------------------------------------------------------------------- JSON strictness

def test_duplicate_key_is_refused_with_its_position(tmp_path):
    p = write(tmp_path / "c.json", '[\n {"id": "a", "source": "x",\n  "source": "y"}\n]')
    assert defects(corpus, p) == [f"{p}:3:3: invalid JSON: duplicate key 'source' (a key may appear once in an object)"]


def test_duplicate_key_in_a_jsonl_line_and_in_a_root_object(tmp_path):
    p = write(tmp_path / "c.jsonl", '{"id": "a", "source": "x"}\n{"id": "b", "source": "y", "id": "c"}\n')
    assert defects(corpus, p) == [f"{p}:2:28: invalid JSON: duplicate key 'id' (a key may appear once in an object)"]
    p = write(tmp_path / "o.json", '{"corpus_id": "a", "entries": [{"id": "1", "source": "x"}], "corpus_id": "b"}')
    assert defects(corpus, p)[0].startswith(f"{p}:1:61: invalid JSON: duplicate key 'corpus_id'")


def test_duplicate_adequacy_in_a_judgment_file_is_refused(tmp_path):
    # the standard library keeps the last value: adequacy 5 would silently become 1
    p = write(
        tmp_path / "j.json", '[{"reviewer_id": "r", "run_id": "x", "entry_id": "1", "adequacy": 5, "adequacy": 1}]'
    )
    read = read_judgments(p)
    assert [str(d) for d in read.defects] == [
        f"{p}:1:70: invalid JSON: duplicate key 'adequacy' (a key may appear once in an object)"]
    assert read.judgments == []


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(tmp_path, literal):
    p = write(tmp_path / "c.json", f'[{{"id": "a", "source": "x", "metadata": {{"v": {literal}}}}}]')
    assert defects(corpus, p) == [f"{p}:1:47: invalid JSON: {literal} is not JSON (use a number or null)"]


def test_a_number_that_overflows_to_infinity_is_refused(tmp_path):
    p = write(tmp_path / "r.jsonl", '{"id": "a", "predicted": "x", "latency_s": 1e999}\n')
    assert defects(read_run, p) == [f"{p}:1:44: invalid JSON: number 1e999 is out of range"]


def test_lone_surrogates_are_refused_in_every_json_reader(tmp_path):
    text = '[{"id": "a", "source": "x\\ud800y", "predicted": "x\\udc00"}]'
    p = write(tmp_path / "c.json", text)
    assert defects(corpus, p) == [f"{p}:1:26: invalid JSON: lone surrogate \\ud800 (not a Unicode character)",
                                  f"{p}:1:51: invalid JSON: lone surrogate \\udc00 (not a Unicode character)"]
    assert defects(read_run, p)[0] == f"{p}:1:26: invalid JSON: lone surrogate \\ud800 (not a Unicode character)"
    g = write(tmp_path / "g.json", '{"term\\udbff": ["x"]}')
    assert defects(read_glossary, g) == [f"{g}:1:7: invalid JSON: lone surrogate \\udbff (not a Unicode character)"]
    j = write(tmp_path / "j.json", '[{"reviewer_id": "r\\ud800", "run_id": "x"}]')
    assert [str(d) for d in read_judgments(j).defects] == [
        f"{j}:1:20: invalid JSON: lone surrogate \\ud800 (not a Unicode character)"]


def test_surrogate_pairs_and_escaped_backslashes_are_fine():
    assert loads('"\\ud83d\\ude00"') == "\U0001F600"
    assert loads('"\\\\ud800"') == "\\ud800"  # an escaped backslash, then the letters "ud800"
    assert escape_problems('"\\\\\\ud800"') == [(3, "lone surrogate \\ud800 (not a Unicode character)")]


def test_nul_is_refused_escaped_or_raw(tmp_path):
    p = write(tmp_path / "c.json", '[{"id": "a", "source": "x\\u0000"}]')
    assert defects(corpus, p) == [f"{p}:1:26: invalid JSON: NUL character (\\u0000) in a string"]
    t = write(tmp_path / "c.tsv", "id\tsource\treference\n1\tx\x00y\tz\n")
    assert defects(corpus, t) == [f"{t}:2:4: NUL character (\\0) in the file: is it a binary file?"]


@pytest.mark.parametrize("opener,closer", [("[", "]"), ('{"a":', "}")])
def test_deep_nesting_never_crashes(tmp_path, opener, closer):
    deep = opener * 100_000 + "1" + closer * 100_000
    p = write(tmp_path / "c.json", '[{"id": "a", "source": "x", "metadata": ' + deep + "}]")
    # depth counts from the record: its object is level 1, the 100th opener of the metadata level 101
    assert defects(corpus, p) == [f"{p}:1:{41 + 99 * len(opener)}: invalid JSON: nested deeper than {MAX_DEPTH} levels"]
    # a depth the C decoder would accept is refused too
    mid = opener * 500 + "1" + closer * 500
    p = write(tmp_path / "m.jsonl", '{"id": "a", "source": "x", "metadata": ' + mid + "}\n")
    assert defects(corpus, p)[0].endswith(f"invalid JSON: nested deeper than {MAX_DEPTH} levels")


def test_deep_nesting_in_every_json_reader(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    p = write(tmp_path / "d.json", deep)
    for reader in (corpus, read_run, read_glossary):
        assert defects(reader, p) == [f"{p}:1:{MAX_DEPTH + 2}: invalid JSON: nested deeper than {MAX_DEPTH} levels"]
    assert [str(d) for d in read_judgments(p).defects] == [
        f"{p}:1:{MAX_DEPTH + 2}: invalid JSON: nested deeper than {MAX_DEPTH} levels"]
    assert defects(read_responses, p) == [f"{p}:1:{MAX_DEPTH + 1}: invalid JSON: nested deeper than {MAX_DEPTH} levels"]
    suite = tmp_path / "suite"
    suite.mkdir()
    write(suite / "grammar.json", deep)
    s = read_suite(suite)
    assert s.tests == [] and [(d.kind, d.line) for d in s.defects if d.severity == "error"] == [("invalid_json", 1)]
    assert f"nested deeper than {MAX_DEPTH} levels" in s.defects[-1].message


def test_a_5000_digit_id_and_a_5000_character_id(tmp_path):
    p = write(tmp_path / "c.json", '[{"id": ' + "7" * 5000 + ', "source": "x"}]')
    assert defects(corpus, p) == [f"{p}:1:9: invalid JSON: integer 777777777777777777777777... (5000 characters) "
                                  "is too long (at most 4300 digits)"]
    p = write(tmp_path / "s.json", json.dumps([{"id": "a" * 5000, "source": "x"}]))
    assert defects(corpus, p) == [f"{p}:1: id is 5000 characters long (at most 256)"]
    p = write(tmp_path / "r.jsonl", json.dumps({"id": "b" * 300, "predicted": "x"}) + "\n")
    assert defects(read_run, p) == [f"{p}:1: id is 300 characters long (at most 256)"]


def test_a_judgment_version_beyond_int64(tmp_path):
    p = write(tmp_path / "j.json", '[{"reviewer_id": "r", "run_id": "x", "entry_id": "1", "adequacy": 3,'
                                   ' "judgment_id": 1, "version": 9223372036854775808}]')
    assert [str(d) for d in read_judgments(p).defects] == [
        f"{p}:1: version 9223372036854775808 is out of range (at most 64 bits)"]
    c = write(tmp_path / "j.csv", "reviewer_id,run_id,entry_id,version\nr,x,1," + "9" * 5000 + "\n")
    assert [str(d) for d in read_judgments(c).defects] == [f"{c}:2: version is a 5000-digit number (at most 64 bits)"]


def test_usage_counts_beyond_int64(tmp_path):
    p = write(tmp_path / "r.jsonl", '{"id": "a", "predicted": "x", "usage": {"prompt_tokens": 99999999999999999999}}\n')
    assert defects(read_run, p) == [
        f"{p}:1: output 'a': usage.prompt_tokens must be a count from 0 to 2^63-1, got 99999999999999999999"]


def test_first_problem_reports_nothing_on_clean_json():
    assert first_problem('{"a": [1, 2.5, {"b": "c"}], "d": null}') is None


# ----------------------------------------------------------------------------- tables

def test_unclosed_csv_quote_is_refused_not_swallowing_the_rest(tmp_path):
    # the lenient reader made rows 3 and 4 part of one cell of row 2
    p = write(tmp_path / "c.csv", 'id,source,reference\n1,"open,x\n2,b,c\n3,d,e\n')
    assert defects(corpus, p) == [f"{p}:2: a quoted cell that starts on this line is never closed"]
    j = write(tmp_path / "j.csv", 'reviewer_id,run_id,entry_id,note\nr,x,1,"never closed\nr,x,2,fine\n')
    assert [str(d) for d in read_judgments(j).defects] == [
        f"{j}:2: malformed CSV: a quoted cell that starts on this line is never closed"]


def test_text_after_a_closing_quote_is_refused(tmp_path):
    p = write(tmp_path / "c.csv", 'id,source\n1,"a"b\n')
    assert defects(corpus, p) == [f"{p}:2: malformed CSV: ',' expected after '\"'"]


@pytest.mark.parametrize("suffix,sep", [("tsv", "\t"), ("csv", ",")])
def test_a_row_missing_a_column_is_refused(tmp_path, suffix, sep):
    # it used to become a reference-free entry
    p = write(
        tmp_path / f"c.{suffix}",
        sep.join(["id", "source", "reference"]) + "\n1" + sep + "x\n2" + sep + "y" + sep + "z\n",
    )
    assert defects(corpus, p) == [f"{p}:2: row has 2 cells but the header names 3 columns"]


def test_json_cells_of_a_table_are_strict(tmp_path):
    p = write(tmp_path / "c.tsv", 'id\tsource\tmetadata\n1\tx\t{"a": 1, "a": 2}\n2\ty\t{"v": NaN}\n')
    assert defects(corpus, p) == [
        f"{p}:2: column 'metadata': invalid JSON: duplicate key 'a' (a key may appear once in an object) "
        "at character 10",
        f"{p}:3: column 'metadata': invalid JSON: NaN is not JSON (use a number or null) at character 7",
    ]
    j = write(tmp_path / "j.csv", 'reviewer_id,run_id,entry_id,task,payload\nr,x,1,C,"{""word"": ""a"", ""n"": NaN}"\n')
    assert [str(d) for d in read_judgments(j).defects] == [
        f"{j}:2: payload is not valid JSON: NaN is not JSON (use a number or null) at character 20"]


# ----------------------------------------------------------------------------- language codes and ids

def test_a_target_language_that_is_a_path_is_rejected_at_import(tmp_path):
    p = write(
        tmp_path / "c.json",
        json.dumps(
            {
                "corpus_id": "e",
                "language_pair": {"source": "eng", "target": "../../evil/zzq"},
                "entries": [{"id": "a", "source": "x"}],
            }
        ),
    )
    assert defects(read_corpus, p) == [
        f"{p}:1: language_pair target: language code '../../evil/zzq' is not an ISO 639-3 code "
        "(three lowercase letters, e.g. crk, ewe, fra)"]
    p = write(
        tmp_path / "d.jsonl",
        json.dumps({"corpus": {"language_pair": "eng-crk/../x"}}) + '\n{"id": "a", "source": "x"}\n',
    )
    assert "language code 'crk/../x' is not an ISO 639-3 code" in defects(read_corpus, p)[0]


def test_language_arguments_are_checked(tmp_path):
    p = write(tmp_path / "c.jsonl", '{"id": "a", "source": "x"}\n')
    assert defects(read_corpus, p, source_lang="eng", target_lang="../crk") == [
        f"{p}: --target-lang: language code '../crk' is not an ISO 639-3 code "
        "(three lowercase letters, e.g. crk, ewe, fra)"
    ]
    assert corpus(p, source_lang="EN", target_lang="CRK").value.language_pair.target == "crk"


def test_a_harness_report_with_a_bad_target_code(tmp_path):
    report = {"run_id": "r", "config": {"target_lang_code": "ab/cd"}, "overall": {},
              "entries": [{"id": "1", "source": "x", "expected": "y", "predicted": "y"}]}
    p = write(tmp_path / "rep.json", json.dumps(report))
    expected = [f"{p}: config target_lang_code: language code 'ab/cd' is not an ISO 639-3 code "
                "(three lowercase letters, e.g. crk, ewe, fra)"]
    assert defects(read_corpus, p, source_lang="eng") == expected
    assert defects(read_corpus, p, source_lang="eng", target_lang="crk") == expected  # even when overridden


def test_reviewer_languages_are_iso_codes(tmp_path):
    p = write(
        tmp_path / "j.json",
        json.dumps({"reviewers": [{"reviewer_id": "r", "name": "R", "languages": ["crk", "x/../y"]}], "judgments": []}),
    )
    assert [str(d) for d in read_judgments(p).defects] == [
        f"{p}:1: languages: language code 'x/../y' is not an ISO 639-3 code "
        "(three lowercase letters, e.g. crk, ewe, fra)"
    ]


def test_id_arguments_are_checked(tmp_path):
    p = write(tmp_path / "r.jsonl", '{"id": "a", "predicted": "x"}\n')
    assert defects(read_run, p, run_id="x" * 300) == [f"{p}: --run-id: the run-id is 300 characters long (at most 256)"]


# ----------------------------------------------------------------------------- files that are not files

def test_a_folder_a_device_and_a_fifo_are_refused_at_once(tmp_path):
    assert defects(corpus, tmp_path) == [f"{tmp_path}: is a folder, not a regular file"]
    assert defects(corpus, "/dev/zero") == ["/dev/zero: is a device, not a regular file"]
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    outcome: list[list[str]] = []
    readers = [corpus, read_run, read_glossary, read_responses]

    def attempt() -> None:
        for reader in readers:
            outcome.append(defects(reader, fifo))

    t = threading.Thread(target=attempt, daemon=True)
    t.start()
    t.join(20)
    if t.is_alive():  # unblock the reader so the test process can end, then fail
        with open(fifo, "wb"):
            pass
        pytest.fail("a reader blocked on a FIFO")
    assert outcome[:4] == [[f"{fifo}: is a FIFO (named pipe), not a regular file"]] * 4
    with pytest.raises(InputError, match="is a FIFO"):
        read_judgments(fifo, fmt="json")


def test_a_fifo_in_a_suite_folder_is_a_defect(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    write(suite / "grammar.json", '[{"id": "g1", "prompt": "p", "eval_method": "exact_match", "expected": "a"}]')
    os.mkfifo(suite / "culture.json")
    s = read_suite(suite)
    assert [t.id for t in s.tests] == ["g1"]
    assert [(d.file, d.kind, d.message) for d in s.defects if d.kind == "unreadable"] == [
        ("culture.json", "unreadable", "is a FIFO (named pipe), not a regular file")]


def test_text_after_the_last_jsonl_record_is_refused(tmp_path):
    p = write(tmp_path / "c.jsonl", '{"id": "a", "source": "x"}\n{"id": "b", "source": "y"} ]]\n')
    assert defects(corpus, p) == [f"{p}:2:28: invalid JSON: Extra data"]
