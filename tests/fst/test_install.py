"""Installing analyzers: local files, .deb packages, a local HTTP server, sha256 verification."""

from __future__ import annotations

import hashlib
import http.server
import json
import threading
from functools import partial
from pathlib import Path

import pytest

from mteval_gui.cli import main
from mteval_gui.domain.card import AnalyzerDecl, LanguageCard
from mteval_gui.fst import find_analyzer, load_analyzer
from mteval_gui.fst.install import InstallError, install_analyzer
from mteval_gui.fst.registry import read_manifest
from tests.fst._support import build_deb, build_tiny_hfstol, install_crk


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return build_tiny_hfstol(tmp_path_factory.mktemp("src") / "tiny-analyzer.hfstol")


@pytest.fixture(scope="module")
def tiny_desc(tmp_path_factory) -> Path:
    return build_tiny_hfstol(tmp_path_factory.mktemp("src") / "desc.hfstol", {"nipaw": ["nipâw+V+AI+Ind+3Sg"]})


@pytest.fixture(scope="module")
def deb(tmp_path_factory, tiny, tiny_desc) -> Path:
    d = tmp_path_factory.mktemp("deb")
    return build_deb(d / "giella-tst_0.1_all.deb", {
        "./usr/share/giella/tst/analyser-gt-norm.hfstol": tiny.read_bytes(),
        "./usr/share/giella/tst/analyser-gt-desc.hfstol": tiny_desc.read_bytes(),
        "./usr/share/giella/tst/analyser-dict-gt-norm.hfstol": tiny.read_bytes(),
        "./usr/share/giella/tst/generator-gt-norm.hfstol": tiny.read_bytes(),
        "./usr/share/giella/tst/tokeniser-disamb-gt-desc.pmhfst": b"not an analyzer",
        "./usr/share/doc/giella-tst/copyright": b"GPL",
    })


@pytest.fixture
def base(tmp_path) -> Path:
    return tmp_path / "analyzers"


@pytest.fixture
def server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    handler = partial(_QuietHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield root, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    t.join()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass


def test_install_local_hfstol(tiny, base):
    res = install_analyzer("tst", tiny, base=base)
    assert [(f.kind, f.file) for f in res.files] == [("strict", "tiny-analyzer.hfstol")]
    assert res.artifact_verified is False
    installed = base / "tst" / "tiny-analyzer.hfstol"
    assert installed.read_bytes() == tiny.read_bytes()
    m = read_manifest("tst", base)
    assert m["strict"]["file"] == "tiny-analyzer.hfstol" and m["strict"]["sha256"] == _sha(tiny)
    assert find_analyzer(None, "strict", lang="tst", base=base) == installed
    assert not [p for p in base.iterdir() if p.name.startswith(".install")]  # staging removed


def test_install_with_sha256_pin(tiny, base):
    res = install_analyzer("tst", tiny, base=base, sha256=_sha(tiny).upper(), kind="descriptive")
    assert res.artifact_verified and res.files[0].verified and res.files[0].kind == "descriptive"


def test_sha256_mismatch_installs_nothing(tiny, base):
    with pytest.raises(InstallError, match="sha256 mismatch for tiny-analyzer.hfstol: expected 0{64}"):
        install_analyzer("tst", tiny, base=base, sha256="0" * 64)
    assert not (base / "tst").exists()
    with pytest.raises(InstallError, match="64 hexadecimal digits"):
        install_analyzer("tst", tiny, base=base, sha256="abc")


def test_card_pin_mismatch_installs_nothing(tiny, base):
    card = LanguageCard(code="tst", name="Test", analyzers=AnalyzerDecl(strict="tiny-analyzer.hfstol",
                                                                         sha256={"tiny-analyzer.hfstol": "1" * 64}))
    with pytest.raises(InstallError, match="sha256 mismatch"):
        install_analyzer("tst", tiny, card=card, base=base)
    assert not (base / "tst").exists()


def test_not_a_transducer_is_refused(tmp_path, base):
    bad = tmp_path / "bad.hfstol"
    bad.write_bytes(b"hello")
    with pytest.raises(InstallError, match="bad.hfstol: not a readable HFST transducer"):
        install_analyzer("tst", bad, base=base)
    assert not (base / "tst").exists()
    with pytest.raises(InstallError, match="file not found"):
        install_analyzer("tst", tmp_path / "nope.hfstol", base=base)


def test_install_local_deb(deb, tiny, tiny_desc, base):
    res = install_analyzer("tst", deb, base=base)
    got = {f.kind: f.file for f in res.files}
    assert got == {"strict": "analyser-dict-gt-norm.hfstol", "descriptive": "analyser-gt-desc.hfstol",
                   "generator": "generator-gt-norm.hfstol"}
    assert any("analyser-gt-norm.hfstol" in s for s in res.skipped)
    assert sorted(p.name for p in (base / "tst").iterdir()) == [
        "analyser-dict-gt-norm.hfstol", "analyser-gt-desc.hfstol", "analyzers.json", "generator-gt-norm.hfstol"]
    desc = find_analyzer(None, "descriptive", lang="tst", base=base)
    assert load_analyzer(desc).analyse("nipaw").accepted
    assert read_manifest("tst", base)["descriptive"]["sha256"] == _sha(tiny_desc)


def test_deb_kind_filter_and_card_names(deb, base):
    res = install_analyzer("tst", deb, base=base, kind="generator")
    assert [(f.kind, f.file) for f in res.files] == [("generator", "generator-gt-norm.hfstol")]
    card = LanguageCard(code="tst", name="Test", analyzers=AnalyzerDecl(strict="analyser-gt-norm.hfstol"))
    res = install_analyzer("tst", deb, base=base, card=card, kind="strict")
    assert [f.file for f in res.files] == ["analyser-gt-norm.hfstol"]  # the card's own name is preferred


def test_deb_member_pin_mismatch_installs_nothing(deb, base):
    card = LanguageCard(code="tst", name="Test",
                        analyzers=AnalyzerDecl(strict="analyser-gt-norm.hfstol", source_format="deb",
                                               sha256={"analyser-gt-desc.hfstol": "2" * 64}))
    with pytest.raises(InstallError, match="sha256 mismatch for analyser-gt-desc.hfstol in giella-tst_0.1_all.deb"):
        install_analyzer("tst", deb, base=base, card=card)
    assert not (base / "tst").exists()


def test_corrupt_deb(tmp_path, base):
    fake = tmp_path / "fake.deb"
    fake.write_bytes(b"!<arch>\ndebian-binary   0           0     0     100644  4         `\n2.0\n")
    with pytest.raises(InstallError, match="no data.tar"):
        install_analyzer("tst", fake, base=base)
    notar = tmp_path / "notar.deb"
    notar.write_bytes(b"PK\x03\x04 zip file")
    with pytest.raises(InstallError, match="not an ar archive"):
        install_analyzer("tst", notar, base=base)
    assert not (base / "tst").exists()


def test_download_hfstol_and_deb_from_local_server(server, tiny, deb, base):
    root, url = server
    (root / "tiny-analyzer.hfstol").write_bytes(tiny.read_bytes())
    (root / deb.name).write_bytes(deb.read_bytes())
    seen = []
    res = install_analyzer("tst", f"{url}/tiny-analyzer.hfstol", base=base, sha256=_sha(tiny),
                           on_progress=lambda done, total: seen.append((done, total)))
    assert res.artifact_verified and res.files[0].path.read_bytes() == tiny.read_bytes()
    assert seen[-1] == (tiny.stat().st_size, tiny.stat().st_size)
    card = LanguageCard(code="tst", name="Test", analyzers=AnalyzerDecl(
        source_url=f"{url}/{deb.name}", source_format="deb", sha256={deb.name: _sha(deb)}))
    res = install_analyzer("tst", card.analyzers.source_url, card=card, base=base)
    assert res.artifact_verified and {f.kind for f in res.files} == {"strict", "descriptive", "generator"}


def test_download_mismatch_and_http_errors(server, tiny, base):
    root, url = server
    (root / "tiny-analyzer.hfstol").write_bytes(tiny.read_bytes())
    with pytest.raises(InstallError, match="sha256 mismatch"):
        install_analyzer("tst", f"{url}/tiny-analyzer.hfstol", base=base, sha256="f" * 64)
    with pytest.raises(InstallError, match="cannot download .*404"):
        install_analyzer("tst", f"{url}/missing.hfstol", base=base)
    assert not (base / "tst").exists()


def test_the_application_installs_with_one_options_object(tiny, tmp_path):
    from mteval_gui.app.analyzers import InstallOptions, install

    base = tmp_path / "analyzers"
    with pytest.raises(InstallError, match="sha256 mismatch"):
        install("tst", tiny, InstallOptions(root=base, sha256="0" * 64))
    assert not (base / "tst").exists()
    install("tst", tiny, InstallOptions(root=base, kind="descriptive", sha256=_sha(tiny)))
    assert json.loads((base / "tst" / "analyzers.json").read_text())["descriptive"]["sha256"] == _sha(tiny)


def test_cli_install_and_list(tiny, tmp_path, monkeypatch, capsys):
    base = tmp_path / "user-analyzers"
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(base))
    assert main(["analyzers", "install", "tst", str(tiny), "--kind", "descriptive", "--sha256", _sha(tiny)]) == 0
    out = capsys.readouterr().out
    assert f"installed descriptive: {base / 'tst' / 'tiny-analyzer.hfstol'}" in out and "(verified)" in out
    assert main(["analyzers", "install", "tst", str(tiny), "--sha256", "0" * 64]) == 1
    assert "sha256 mismatch" in capsys.readouterr().err
    assert json.loads((base / "tst" / "analyzers.json").read_text())["descriptive"]["sha256"] == _sha(tiny)
    assert main(["analyzers", "list"]) == 0
    out = capsys.readouterr().out
    assert f"descriptive  {base / 'tst' / 'tiny-analyzer.hfstol'}  sha256 {_sha(tiny)} (no pin)" in out
    assert (
        "crk (Plains Cree)" in out and "not installed (card expects crk-strict-analyzer-for-dictionary.hfstol)" in out
    )


@pytest.mark.shared_data
def test_install_real_crk_analyzers(shared_data, tmp_path, monkeypatch, capsys):
    base = tmp_path / "a"
    paths = install_crk(shared_data, base)
    assert {k: p.name for k, p in paths.items()} == {
        "strict": "crk-strict-analyzer-for-dictionary.hfstol",
        "descriptive": "crk-descriptive-analyzer.hfstol",
        "generator": "crk-strict-generator.hfstol",
    }
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(base))
    assert main(["analyzers", "list"]) == 0
    out = capsys.readouterr().out
    assert "489ae191edb03c76ecd7a3260a33eb331ebf2701dae18842009ac45efe27a54e (matches card pin)" in out
    assert out.count("(matches card pin)") == 3


def test_kind_contradicting_the_file_name_is_refused(tiny, base, tmp_path):
    gen = tmp_path / "generator-gt-norm.hfstol"
    gen.write_bytes(tiny.read_bytes())
    with pytest.raises(InstallError, match="generator-gt-norm.hfstol is the generator transducer by its name, "
                                           "not a strict analyzer: install it with --kind generator"):
        install_analyzer("tst", gen, base=base, kind="strict")
    assert not (base / "tst").exists()
    res = install_analyzer("tst", gen, base=base, kind="generator")
    assert [(f.kind, f.file) for f in res.files] == [("generator", "generator-gt-norm.hfstol")]


def test_text_file_is_refused_as_a_transducer_even_when_the_card_declares_deb(tmp_path, base):
    card = LanguageCard(code="tst", name="Test", analyzers=AnalyzerDecl(strict="a.hfstol", source_format="deb"))
    txt = tmp_path / "glossary.tsv"
    txt.write_text("a\tb\n", encoding="utf-8")
    with pytest.raises(InstallError) as ei:
        install_analyzer("tst", txt, base=base, card=card)
    assert str(ei.value) == ("glossary.tsv: not a readable HFST transducer (the file does not start with the HFST "
                             "header; GiellaLT .hfstol files do)")
    assert not (base / "tst").exists()
