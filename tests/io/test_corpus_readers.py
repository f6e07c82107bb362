"""Corpus readers: every format of SPEC §1.1, and precise defects for bad input."""

from __future__ import annotations

import json
import unicodedata

import pytest

from mteval_gui.errors import InputError
from mteval_gui.io import detect_format, read_corpus


def _defects(exc: InputError) -> list[str]:
    return [str(d) for d in exc.defects]


def write(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


def test_json_list_of_entries(tmp_path):
    p = write(tmp_path / "c.json", json.dumps([
        {"id": 1, "source": "Hello", "reference": "Allo", "variants": ["Salut"], "difficulty": 2,
         "terminology": {"Hello": ["Allo"]}, "phenomena": ["greeting"], "note": "x"},
        {"id": "b", "source": "Bye", "reference": None},
    ]))
    loaded = read_corpus(p, source_lang="eng", target_lang="fra")
    c = loaded.value
    assert loaded.format == "json"
    assert c.corpus_id == "c"
    assert str(c.language_pair) == "eng-fra"
    assert [e.id for e in c.entries] == ["1", "b"]
    e = c.entries[0]
    assert (e.reference, e.variants, e.difficulty, e.terminology) == ("Allo", ["Salut"], 2, {"Hello": ["Allo"]})
    assert e.metadata == {"note": "x"}
    assert c.entries[1].reference is None
    assert loaded.warnings == ["fields kept in each entry's metadata: note"]
    assert loaded.lines == {"1": 1, "b": 1}


def test_json_object_with_metadata_and_lines(tmp_path):
    text = (
        '{\n "corpus_id": "demo",\n "version": 3,\n "language_pair": {"source": "en", "target": "fr"},\n'
        ' "license": "CC-BY-4.0",\n "created": "today",\n "entries": [\n'
        '  {"id": "a", "source": "one"},\n'
        '  {"id": "b",\n   "source": "two"}\n ]\n}\n'
    )
    loaded = read_corpus(write(tmp_path / "x.json", text))
    c = loaded.value
    assert (c.corpus_id, c.version, c.license) == ("demo", "3", "CC-BY-4.0")
    assert (c.language_pair.source, c.language_pair.target) == ("eng", "fra")
    assert c.metadata == {"created": "today"}
    assert loaded.lines == {"a": 8, "b": 9}


def test_jsonl_with_corpus_header_bom_crlf_and_nfc(tmp_path):
    decomposed = "nipa\u0302w"
    lines = [json.dumps({"corpus": {"corpus_id": "k", "language_pair": "eng-crk"}}),
             json.dumps({"id": "1", "source": "he sleeps", "reference": decomposed}, ensure_ascii=False), "",
             json.dumps({"id": "2", "source": "I say so", "reference": "nititwân"}, ensure_ascii=False)]
    p = write(tmp_path / "c.jsonl", b"\xef\xbb\xbf" + "\r\n".join(lines).encode("utf-8"))
    loaded = read_corpus(p)
    c = loaded.value
    assert c.corpus_id == "k" and str(c.language_pair) == "eng-crk"
    assert c.entries[0].reference == "nipâw"
    assert unicodedata.is_normalized("NFC", c.entries[0].reference)
    assert loaded.lines == {"1": 2, "2": 4}


def test_tsv_with_list_and_json_columns(tmp_path):
    text = (
        "id\tsource\treference\tvariants\tterminology\tdifficulty\tphenomena\texpected_morphology\n"
        'e1\tI say so\tnititwân\tnititwān|nititwan\t{"say": ["itwêw"]}\t1\tperson|number\t'
        '{"nititwân": "itwêw+V+AI+Ind+1Sg"}\n'
        'e2\tyou leave\tkisipwêhtân\t["kisipwēhtān"]\t\t\t\t\n'
    )
    c = read_corpus(write(tmp_path / "c.tsv", text), source_lang="eng", target_lang="crk").value
    e1, e2 = c.entries
    assert e1.variants == ["nititwān", "nititwan"]
    assert e1.terminology == {"say": ["itwêw"]}
    assert e1.difficulty == 1 and e1.phenomena == ["person", "number"]
    assert e1.expected_morphology == {"nititwân": "itwêw+V+AI+Ind+1Sg"}
    assert e2.variants == ["kisipwēhtān"] and e2.difficulty is None and e2.terminology == {}


def test_csv_with_quoted_multiline_cell(tmp_path):
    text = 'id,source,reference\n1,"Hello, world","Bonjour,\nle monde"\n2,Bye,Au revoir\n'
    loaded = read_corpus(write(tmp_path / "c.csv", text), source_lang="eng", target_lang="fra")
    c = loaded.value
    assert c.entries[0].source == "Hello, world"
    assert c.entries[0].reference == "Bonjour,\nle monde"
    assert loaded.lines == {"1": 2, "2": 4}


def test_line_aligned_text_files_guess_languages(tmp_path):
    write(tmp_path / "test.fr", "Bonjour.\nMerci.")
    write(tmp_path / "test.ewe", "Ŋdi na wò.\nAkpe.\n")
    loaded = read_corpus(tmp_path / "test.fr", ref_path=tmp_path / "test.ewe")
    c = loaded.value
    assert loaded.format == "text"
    assert str(c.language_pair) == "fra-ewe"
    assert [(e.id, e.source, e.reference) for e in c.entries] == [
        ("1", "Bonjour.", "Ŋdi na wò."),
        ("2", "Merci.", "Akpe."),
    ]
    assert c.corpus_id == f"{tmp_path.name}-test"


def test_harness_report_as_corpus(tmp_path):
    report = {"run_id": "r1", "config": {"corpus_path": "datasets/eng-sme-dev-v1.json", "target_lang_code": "sme"},
              "overall": {}, "entries": [{"id": "t1", "source": "Hi", "expected": "Bures", "predicted": "x",
                                           "segment": "", "difficulty": 1, "chrf_score": 3.0}]}
    p = write(tmp_path / "r_report.json", json.dumps(report))
    assert detect_format(p) == "harness-report"
    loaded = read_corpus(p)
    c = loaded.value
    assert loaded.format == "harness-report"
    assert c.corpus_id == "eng-sme-dev-v1" and str(c.language_pair) == "eng-sme"
    e = c.entries[0]
    assert (e.id, e.source, e.reference, e.segment, e.metadata) == ("t1", "Hi", "Bures", None, {})


def test_harness_report_difficulty_zero_is_no_difficulty(tmp_path):
    """The harness writes difficulty 0 for entries without one (its default); tiers here are 1-5."""
    report = {"run_id": "r1", "config": {"corpus_path": "datasets/eng-sme-dev-v1.json", "target_lang_code": "sme"},
              "overall": {}, "entries": [{"id": "t1", "source": "Hi", "expected": "Bures", "predicted": "x",
                                           "difficulty": 0},
                                          {"id": "t2", "source": "Yes", "expected": "Juo", "predicted": "Juo",
                                           "difficulty": 2}]}
    c = read_corpus(write(tmp_path / "r_report.json", json.dumps(report))).value
    assert [(e.id, e.difficulty) for e in c.entries] == [("t1", None), ("t2", 2)]


@pytest.mark.parametrize("name,content,fmt", [
    ("a.jsonl", '{"id": 1, "source": "x"}\n{"id": 2, "source": "y"}\n', "jsonl"),
    ("a.txt", '{"id": 1, "source": "x"}\n{"id": 2, "source": "y"}\n', "jsonl"),
    ("a.txt", '[{"id": 1, "source": "x"}]', "json"),
    ("a.dat", "id\tsource\n1\tx\n", "tsv"),
    ("a.dat", "id,source\n1,x\n", "csv"),
    ("a.en", "Hello\nWorld\n", "text"),
])
def test_detect_format_by_content(tmp_path, name, content, fmt):
    assert detect_format(write(tmp_path / name, content)) == fmt


# ---------------------------------------------------------------- defects

def test_truncated_json_reports_line_and_column(tmp_path):
    p = write(tmp_path / "c.json", '[\n {"id": "a", "source": "x"},\n {"id": "b", "sou')
    with pytest.raises(InputError) as ei:
        read_corpus(p, source_lang="eng", target_lang="fra")
    assert _defects(ei.value) == [f"{p}:3:14: invalid JSON: Unterminated string starting at"]


def test_truncated_json_after_value(tmp_path):
    p = write(tmp_path / "c.json", '[\n {"id": "a", "source": "x"},\n')
    with pytest.raises(InputError) as ei:
        read_corpus(p, source_lang="eng", target_lang="fra")
    assert _defects(ei.value) == [f"{p}:3:1: invalid JSON: Expecting value (the file ends too early: truncated?)"]


def test_all_entry_defects_are_collected(tmp_path):
    p = write(tmp_path / "c.jsonl", "\n".join([
        '{"id": "a", "source": "x"}',
        '{"id": "a", "source": "y"}',
        '{"id": "b", "source": "   "}',
        '{"id": "c", "source": "z", "difficulty": 7}',
        '{"source": "no id"}',
        '{"id": "d", "source": "w", "variants": "oops"}',
        '{"id": "e", "source": 5}',
        'not json',
    ]))
    with pytest.raises(InputError) as ei:
        read_corpus(p, source_lang="eng", target_lang="fra")
    assert _defects(ei.value) == [
        f"{p}:2: duplicate id 'a' (first at line 1)",
        f"{p}:3: entry 'b': empty source",
        f"{p}:4: entry 'c': difficulty 7 out of range 1-5",
        f"{p}:5: missing id",
        f"{p}:6: entry 'd': variants must be a list of strings",
        f"{p}:7: entry 'e': source must be a string, got number",
        f"{p}:8:1: invalid JSON: Expecting value",
    ]


def test_missing_required_column(tmp_path):
    p = write(tmp_path / "c.tsv", "id\treference\n1\tx\n")
    with pytest.raises(InputError) as ei:
        read_corpus(p, source_lang="eng", target_lang="fra")
    assert _defects(ei.value) == [f"{p}:1: missing required column 'source' (columns: id, reference)"]


def test_table_row_defects(tmp_path):
    p = write(tmp_path / "c.tsv", "id\tsource\tterminology\n1\tx\t{bad\n2\t\t\n3\ty\tz\textra\n")
    with pytest.raises(InputError) as ei:
        read_corpus(p, source_lang="eng", target_lang="fra")
    assert _defects(ei.value) == [
        f"{p}:2: column 'terminology': invalid JSON: Expecting property name enclosed in double quotes at character 2",
        f"{p}:3: entry '2': missing source",
        f"{p}:4: row has 4 cells but the header names 3 columns",
    ]


def test_line_count_mismatch(tmp_path):
    write(tmp_path / "a.fr", "un\ndeux\ntrois\n")
    write(tmp_path / "a.ewe", "ɖeka\neve")
    with pytest.raises(InputError) as ei:
        read_corpus(tmp_path / "a.fr", ref_path=tmp_path / "a.ewe")
    assert _defects(ei.value) == [
        f"{tmp_path / 'a.ewe'}:3: line-count mismatch: {tmp_path / 'a.ewe'} has 2 lines but {tmp_path / 'a.fr'} has 3"
    ]


def test_invalid_utf8_located_and_everything_reported(tmp_path):
    p = write(
        tmp_path / "a.jsonl",
        b'{"id": "1", "source": "ok"}\n{"id": "2", "source": "caf\xe9 \xff"}\n{"id": "1", "source": "dup"}\n',
    )
    with pytest.raises(InputError) as ei:
        read_corpus(p, source_lang="fra", target_lang="ewe")
    assert _defects(ei.value) == [
        f"{p}:2:27: invalid UTF-8 (byte E9); save the file as UTF-8",
        f"{p}:2:29: invalid UTF-8 (byte FF); save the file as UTF-8",
        f"{p}:3: duplicate id '1' (first at line 1)",
    ]


def test_unknown_language_pair_is_a_defect(tmp_path):
    p = write(tmp_path / "c.jsonl", '{"id": 1, "source": "x"}\n')
    with pytest.raises(InputError) as ei:
        read_corpus(p)
    assert _defects(ei.value) == [
        f"{p}: the file does not say which languages it holds: give --source-lang and --target-lang"
    ]


def test_empty_source_line_in_text(tmp_path):
    write(tmp_path / "a.fr", "un\n\ntrois\n")
    with pytest.raises(InputError) as ei:
        read_corpus(tmp_path / "a.fr", target_lang="ewe")
    assert _defects(ei.value) == [f"{tmp_path / 'a.fr'}:2: empty source"]


def test_missing_file(tmp_path):
    with pytest.raises(InputError) as ei:
        read_corpus(tmp_path / "nope.json")
    assert _defects(ei.value) == [f"{tmp_path / 'nope.json'}: file not found"]
