"""Helpers for analyzer tests: tiny transducers compiled at test time, .deb packages, crk install."""

from __future__ import annotations

import io
import tarfile
import time
from pathlib import Path

import pytest

CRK_FILES = {
    "strict": "crk-strict-analyzer-for-dictionary.hfstol",
    "descriptive": "crk-descriptive-analyzer.hfstol",
    "generator": "crk-strict-generator.hfstol",
}

# surface form -> analyses; flag diacritics are woven in to check they are removed
TINY_LEXICON = {
    "nipâw": ["nipâw+V+AI+Ind+3Sg"],
    "ê-nipât": ["PV/e+nipâw+V+AI+Cnj+3Sg"],
    "atim": ["atim+N+A+Sg", "atimêw+V+TA+Imp+Imm+2Sg+3SgO"],
    "Cree": ["Cree+N+Prop"],
}


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def build_tiny_hfstol(path: Path, lexicon: dict[str, list[str]] | None = None) -> Path:
    """Compile a small optimized-lookup analyzer with hfst (flag diacritics included)."""
    hfst = pytest.importorskip("hfst", reason="compiling test transducers needs hfst")

    lexicon = lexicon or TINY_LEXICON
    parts = []
    for surface, analyses in lexicon.items():
        for a in analyses:
            lemma_end = a.index("+")
            head, tail = a[:lemma_end], a[lemma_end:]
            # input symbols: the surface; output: analysis with two flag diacritics around the tags
            parts.append(
                f'[ "@U.order.indep@" {{{_escape(surface)}}}:{{{_escape(head)}}} '
                f'"@U.order.indep@" 0:{{{_escape(tail)}}} "@D.joiner.NULL@" ]'
            )
    t = hfst.regex(" | ".join(parts))
    t.convert(hfst.ImplementationType.HFST_OLW_TYPE)
    out = hfst.HfstOutputStream(filename=str(path), type=hfst.ImplementationType.HFST_OLW_TYPE)
    out.write(t)
    out.flush()
    out.close()
    return path


def build_multichar_hfstol(path: Path, *, weighted: bool) -> Path:
    """An analyzer with a multi-character input symbol and weighted ambiguity.

    ``ab`` -> ``AB`` (``a`` then ``b``), ``abc`` -> ``X`` (the one symbol ``abc``), ``x`` -> ``Z`` (1.0),
    ``W`` (1.5), ``Y`` (2.0). ``ab`` is what pyhfst's own tokeniser cannot read: ``ab`` is a prefix of
    the symbol ``abc`` but not a symbol, and it gives up instead of taking ``a``.
    """
    hfst = pytest.importorskip("hfst", reason="compiling test transducers needs hfst")
    b = hfst.HfstBasicTransducer()
    for s in (1, 2, 3):
        b.add_state(s)
    for src, dst, inp, out, w in ((0, 1, "a", "A", 0.0), (1, 2, "b", "B", 0.0), (0, 2, "abc", "X", 0.0),
                                  (0, 3, "x", "Z", 1.0), (0, 3, "x", "Y", 2.0), (0, 3, "x", "W", 1.5)):
        b.add_transition(src, hfst.HfstBasicTransition(dst, inp, out, w))
    b.set_final_weight(2, 0.0)
    b.set_final_weight(3, 0.0)
    t = hfst.HfstTransducer(b, hfst.ImplementationType.TROPICAL_OPENFST_TYPE)
    t.convert(hfst.ImplementationType.HFST_OLW_TYPE if weighted else hfst.ImplementationType.HFST_OL_TYPE)
    out = hfst.HfstOutputStream(filename=str(path), type=t.get_type())
    out.write(t)
    out.flush()
    out.close()
    return path


def _ar_member(name: str, data: bytes) -> bytes:
    header = (f"{name + '/':<16}{int(time.time()):<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}").encode("ascii") + b"`\n"
    assert len(header) == 60
    return header + data + (b"\n" if len(data) % 2 else b"")


def _tar(files: dict[str, bytes], mode: str) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def build_deb(path: Path, files: dict[str, bytes], *, compression: str = "xz") -> Path:
    """A minimal Debian package (ar archive) whose data.tar.<compression> holds ``files``."""
    control = _tar({"./control": b"Package: giella-test\nVersion: 0.1\nArchitecture: all\n"}, "w:gz")
    data = _tar(files, f"w:{compression}")
    blob = b"!<arch>\n" + _ar_member("debian-binary", b"2.0\n") + _ar_member("control.tar.gz", control) \
        + _ar_member(f"data.tar.{compression}", data)
    path.write_bytes(blob)
    return path


def install_crk(shared_data: Path, base: Path) -> dict[str, Path]:
    """Install the three real crk transducers into ``base/crk`` with the product's installer."""
    from mteval_gui.cards import load_card
    from mteval_gui.fst.install import install_analyzer

    card = load_card("crk")
    out = {}
    src = shared_data / "crk" / "fst"
    for kind, name in CRK_FILES.items():
        res = install_analyzer("crk", src / name, card=card, kind=kind, base=base)
        out[kind] = res.files[0].path
    return out


def truncated_copy(src: Path, dest: Path, size: int) -> Path:
    """The first ``size`` bytes of an analyzer (a download cut short)."""
    dest.write_bytes(src.read_bytes()[:size])
    return dest


def corrupt_first_transitions(src: Path, dest: Path) -> Path:
    """A copy whose initial state's transitions point far beyond the tables (same size; hfst: SIGSEGV)."""
    import struct

    from mteval_gui.fst.olformat import read_layout

    layout = read_layout(src)
    data = bytearray(src.read_bytes())
    start = layout.transducer_bytes - layout.index_table_size * 6 - layout.target_table_size * (
        12 if layout.weighted else 8)
    for i in range(1, layout.input_symbol_count + 1):
        pos = start + i * 6
        (sym,) = struct.unpack_from("<H", data, pos)
        if sym != 0xFFFF:
            struct.pack_into("<I", data, pos + 2, 0xFFFFFF00)
    dest.write_bytes(bytes(data))
    return dest
