"""Analyzer lookup: tokenisation, case fallback, analyzer-safe forms, caches, sha256."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from mteval_gui.fst import Analyzer, AnalyzerError, load_analyzer
from tests.fst._support import build_tiny_hfstol


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return build_tiny_hfstol(tmp_path_factory.mktemp("tiny") / "tiny.hfstol")


def test_lookup_strips_flags_and_parses(tiny):
    an = Analyzer.load(tiny)
    got = an.analyse("ê-nipât")
    assert got.accepted
    assert [a.raw for a in got.analyses] == ["PV/e+nipâw+V+AI+Cnj+3Sg"]
    assert got.analyses[0].preverbs == ("PV/e",)
    assert [a.raw for a in an.analyse("atim").analyses] == ["atim+N+A+Sg", "atimêw+V+TA+Imp+Imm+2Sg+3SgO"]


def test_case_fallback_order(tiny):
    an = Analyzer.load(tiny)
    assert an.analyse("Nipâw").form == "nipâw"  # first letter lowered
    assert an.analyse("NIPÂW").form == "nipâw"  # all lowered
    assert an.analyse("Cree").form == "Cree"  # as written wins
    assert an.analyse("cree").accepted is False  # no upper-casing fallback
    rejected = an.analyse("Wâpamêw")
    assert rejected.accepted is False and rejected.form == "Wâpamêw"


def test_text_tokens_nfd_and_typographic_hyphens(tiny):
    an = Analyzer.load(tiny)
    nfd = unicodedata.normalize("NFD", "nipâw")
    assert nfd != "nipâw"
    words = an.analyse_text(f"« {nfd}, Ê\u2010nipât! » 12 atim.")
    assert [w.token for w in words] == ["nipâw", "Ê\u2010nipât", "atim"]
    assert [w.form for w in words] == ["nipâw", "ê-nipât", "atim"]
    assert all(w.accepted for w in words)
    assert an.analyse_text("") == [] and an.analyse_text(None) == []


def test_lru_and_persistent_cache(tiny):
    store: dict[str, list[str]] = {}
    an = Analyzer.load(tiny, cache=store)
    an.analyse("Nipâw")
    assert an.transducer_lookups == 2  # "Nipâw" (rejected), then "nipâw"
    assert store == {"Nipâw": [], "nipâw": ["nipâw+V+AI+Ind+3Sg"]}
    an.analyse("Nipâw")
    assert an.transducer_lookups == 2  # LRU hit
    fresh = Analyzer.load(tiny, cache=store)
    assert fresh.analyse("Nipâw").form == "nipâw"
    assert fresh.transducer_lookups == 0  # answered from the persistent cache


def test_sha256_info_and_shared_loading(tiny):
    an = load_analyzer(tiny)
    assert an.sha256 == hashlib.sha256(tiny.read_bytes()).hexdigest()
    assert an.info() == {"file": "tiny.hfstol", "sha256": an.sha256}
    again = load_analyzer(tiny, cache={})
    assert again._transducer is an._transducer and again is not an  # one transducer, per-job caches
    assert again.persistent_cache == {} and an.persistent_cache is None


def test_unreadable_files(tmp_path):
    with pytest.raises(AnalyzerError, match="not found"):
        Analyzer.load(tmp_path / "missing.hfstol")
    bad = tmp_path / "bad.hfstol"
    bad.write_bytes(b"this is not a transducer")
    with pytest.raises(AnalyzerError, match="not a readable HFST transducer"):
        Analyzer.load(bad)


def test_file_that_makes_hfst_abort_is_refused_without_crashing(tmp_path):
    # hfst itself terminates the process on these four bytes; the check runs in a child to see that
    bad = tmp_path / "glossary.hfstol"
    bad.write_bytes(b"a\tb\n")
    code = ("from mteval_gui.fst.analyzer import read_transducer, AnalyzerError\n"
            f"try:\n    read_transducer({str(bad)!r})\nexcept AnalyzerError as e:\n    print(e)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == (f"{bad}: not a readable HFST transducer (the file does not start with the HFST "
                                   "header; GiellaLT .hfstol files do)")


@pytest.mark.shared_data
def test_real_crk_analyzer(shared_data):
    an = Analyzer.load(shared_data / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol")
    assert [a.raw for a in an.analyse("nititwân").analyses] == ["itwêw+V+AI+Ind+1Sg"]
    assert [a.raw for a in an.analyse("ê-ayâyân").analyses] == ["PV/e+ayâw+V+AI+Cnj+1Sg", "PV/e+ayâw+V+TI+Cnj+1Sg"]
    cap = an.analyse("Nititwân")  # capitalised words are not analysed as written: fallback
    assert cap.form == "nititwân" and cap.accepted
    red = an.analyse("papimohtêw").analyses[0]
    assert (red.reduplication, red.lemma) == (("RdplW",), "pimohtêw")
    assert not an.analyse("kotak").accepted and not an.analyse("êwako").accepted  # known gaps
    assert not an.analyse("nitītwān").accepted and not an.analyse("nititwan").accepted
    assert an.sha256 == "489ae191edb03c76ecd7a3260a33eb331ebf2701dae18842009ac45efe27a54e"
