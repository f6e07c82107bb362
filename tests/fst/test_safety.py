"""Damaged analyzers never take the process down: header and table checks, the child-process probe, pins."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mteval_gui.domain.card import AnalyzerDecl, LanguageCard
from mteval_gui.fst import AnalyzerError, AnalyzerNotFound, AnalyzerUnusable, load_analyzer, shared_analyzer
from mteval_gui.fst import probe as probe_mod
from mteval_gui.fst.analyzer import sha256_file
from mteval_gui.fst.probe import ProbeVerdict, probe_file
from mteval_gui.paths import demo_dir
from mteval_gui.scoring.plugins import ScoringContext
from tests.fst._support import CRK_FILES, build_tiny_hfstol, corrupt_first_transitions, truncated_copy

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return build_tiny_hfstol(tmp_path_factory.mktemp("tiny") / "tiny.hfstol")


@pytest.fixture(autouse=True)
def _forget_verdicts():
    """Verdicts are memoised per process by content: a test that fakes a crashing child must not leak one."""
    probe_mod.forget()
    yield
    probe_mod.forget()


def _child_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["MTEVAL_HOME"] = str(tmp_path / "home")
    return env


def _load_in_child(files: list[Path], tmp_path: Path, prelude: str = "") -> list[str]:
    """Load each file with load_analyzer in a fresh process; the messages it got (the process must survive)."""
    code = ("import json, sys\n" + prelude +
            "from mteval_gui.fst import load_analyzer, AnalyzerError\n"
            "out = []\n"
            "for p in json.loads(sys.argv[1]):\n"
            "    try:\n"
            "        load_analyzer(p).analyse('nipâw')\n"
            "        out.append('loaded')\n"
            "    except AnalyzerError as e:\n"
            "        out.append(str(e))\n"
            "print(json.dumps(out))\n")
    proc = subprocess.run([sys.executable, "-c", code, json.dumps([str(f) for f in files])], capture_output=True,
                          text=True, timeout=300, env=_child_env(tmp_path))
    assert proc.returncode == 0, f"the process died (exit {proc.returncode}): {proc.stderr[-500:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _truncations(src: Path, folder: Path) -> list[Path]:
    size = src.stat().st_size
    cuts = sorted({6, 9, 100, 300, 1000, size // 3, size // 2, size - 100, size - 1})
    return [truncated_copy(src, folder / f"cut-{n}-{src.name}", n) for n in cuts if 0 < n < size]


def test_truncated_analyzers_are_refused_and_the_process_survives(tiny, tmp_path):
    files = _truncations(tiny, tmp_path)
    got = _load_in_child(files, tmp_path)
    for f, msg in zip(files, got, strict=True):
        assert msg.startswith(f"{f}: not a readable HFST transducer (the file is truncated"), msg


@pytest.mark.shared_data
def test_truncated_crk_analyzers_are_refused_and_the_process_survives(shared_data, tmp_path):
    # hfst aborted (SIGABRT, exit 134) on these, pyhfst crashed (SIGSEGV) or looped
    files = _truncations(shared_data / "crk" / "fst" / CRK_FILES["strict"], tmp_path)
    got = _load_in_child(files, tmp_path)
    assert all(m.endswith(")") and "the file is truncated" in m for m in got), got
    got = _load_in_child(files[:4], tmp_path, prelude="import os; os.environ['MTEVAL_FST_BACKEND'] = 'pyhfst'\n")
    assert all("the file is truncated" in m for m in got), got


def test_corrupt_tables_are_refused_and_the_process_survives(tiny, tmp_path):
    bad = corrupt_first_transitions(tiny, tmp_path / "corrupt.hfstol")
    assert bad.stat().st_size == tiny.stat().st_size
    (msg,) = _load_in_child([bad], tmp_path)
    assert msg == f"{bad}: not a readable HFST transducer (corrupt index table (a target beyond the target table))"


@pytest.mark.skipif(sys.platform == "win32", reason="signal names of a crashed child are POSIX")
def test_the_probe_alone_keeps_a_crashing_file_out_of_the_process(tiny, tmp_path):
    # with the table checks switched off, hfst's SIGSEGV on the first lookup happens in the probe's child
    bad = corrupt_first_transitions(tiny, tmp_path / "corrupt.hfstol")
    prelude = ("import mteval_gui.fst.analyzer as A\n"
               "A.check_tables = lambda path, layout: None\n")
    (msg,) = _load_in_child([bad], tmp_path, prelude=prelude)
    assert msg.startswith(f"{bad}: the hfst library crashed reading it (killed by SIGSEGV")
    assert msg.endswith("the file is damaged")


@pytest.mark.skipif(sys.platform == "win32", reason="signal names of a crashed child are POSIX")
def test_probe_verdicts_are_cached_by_content(tiny, tmp_path, monkeypatch):
    copy = tmp_path / "copy.hfstol"
    shutil.copyfile(tiny, copy)
    sha, size = sha256_file(copy), copy.stat().st_size
    probe_mod.forget()
    first = probe_file(copy, "hfst", sha256=sha, size=size)
    assert first == ProbeVerdict(True, None, cached=False)
    calls = []

    def crashing_child(path, backend):
        calls.append(path)
        return [sys.executable, "-c", "import os; os.abort()"], dict(os.environ)

    monkeypatch.setattr(probe_mod, "child_command", crashing_child)
    assert probe_file(copy, "hfst", sha256=sha, size=size) == ProbeVerdict(True, None, cached=True)  # in memory
    probe_mod.forget()
    assert probe_file(copy, "hfst", sha256=sha, size=size).cached  # from <user data>/cache/fst-probe.json
    disk = json.loads((Path(os.environ["MTEVAL_HOME"]) / "cache" / "fst-probe.json").read_text())
    assert [k.split(":")[:3] for k in disk] == [[sha, str(size), "hfst"]]
    assert calls == []
    other = probe_file(copy, "pyhfst", sha256=sha, size=size)  # another backend is checked on its own
    assert calls == [copy] and not other.ok and not other.cached
    assert other.reason == "the pyhfst library crashed reading it (killed by SIGABRT); the file is damaged"
    assert probe_file(copy, "pyhfst", sha256=sha, size=size) == ProbeVerdict(False, other.reason, cached=True)


def test_a_probe_that_hangs_is_stopped_and_not_cached(tiny, monkeypatch):
    probe_mod.forget()
    monkeypatch.setattr(probe_mod, "child_command",
                        lambda path, backend: ([sys.executable, "-c", "import time; time.sleep(60)"], dict(os.environ)))
    v = probe_file(tiny, "hfst", sha256="0" * 64, size=1, timeout=0.5)
    assert v == ProbeVerdict(False, "checking it with hfst took longer than 0.5 s")
    monkeypatch.setattr(probe_mod, "child_command",
                        lambda path, backend: ([sys.executable, "-c", "pass"], dict(os.environ)))
    assert probe_file(tiny, "hfst", sha256="0" * 64, size=1).reason.startswith("the check gave no answer")


def test_the_probe_child_runs_this_package_whatever_the_working_directory_holds(tiny, tmp_path, monkeypatch):
    # a data folder holding a package of the same name was imported by the child instead (or its code ran)
    fake = tmp_path / "data" / "mteval_gui"
    (fake / "fst").mkdir(parents=True)
    (fake / "__init__.py").write_text("raise SystemExit('the working directory was imported')\n", encoding="utf-8")
    (fake / "fst" / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.chdir(fake.parent)
    v = probe_file(tiny, "hfst", sha256="1" * 64, size=tiny.stat().st_size)
    assert v == ProbeVerdict(True, None, cached=False)


def test_a_probe_child_that_cannot_work_says_so_and_is_not_cached(tiny, monkeypatch):
    runs = []

    def broken_child(path, backend):
        runs.append(path)
        return [sys.executable, "-c", "import mteval_gui_missing_module"], dict(os.environ)

    monkeypatch.setattr(probe_mod, "child_command", broken_child)
    v = probe_file(tiny, "hfst", sha256="2" * 64, size=1)
    assert not v.ok and not v.cached
    assert v.reason == ("the process that checks it failed (exit status 1: ModuleNotFoundError: No module named "
                        "'mteval_gui_missing_module')")  # not "the file is damaged": the file was never read
    assert not probe_file(tiny, "hfst", sha256="2" * 64, size=1).cached and len(runs) == 2
    assert not (Path(os.environ["MTEVAL_HOME"]) / "cache" / "fst-probe.json").exists()


def test_an_exception_of_the_library_in_the_child_is_a_verdict_on_the_file(tiny, monkeypatch):
    import mteval_gui.fst.backends as backends

    def failing_open(path, layout, backend):
        raise IndexError("list index out of range")  # what pure-Python pyhfst raises on some damaged tables

    monkeypatch.setattr(backends, "open_transducer", failing_open)
    assert probe_mod._check(str(tiny), "pyhfst") == {
        "ok": False, "reason": "the pyhfst library failed reading it (IndexError: list index out of range); the file "
                               "is damaged"}


def test_a_failed_probe_makes_the_analyzer_unusable(tiny, tmp_path, monkeypatch):
    copy = tmp_path / "tiny.hfstol"
    shutil.copyfile(tiny, copy)
    probe_mod.forget()
    monkeypatch.setattr(probe_mod, "child_command",
                        lambda path, backend: ([sys.executable, "-c", "import os; os.abort()"], dict(os.environ)))
    with pytest.raises(AnalyzerError, match="the hfst library crashed reading it"):
        load_analyzer(copy)
    ctx = ScoringContext("eng", "tst", options={"analyzer_path": str(copy)})
    with pytest.raises(AnalyzerUnusable) as err:
        shared_analyzer(ctx, "strict")
    assert str(err.value).startswith(f"the strict analyzer for tst cannot be used: {copy}: the hfst library crashed")
    assert str(err.value).endswith(
        "the file is damaged; install it again (`mteval analyzers install tst PATH_OR_URL`)")
    assert isinstance(err.value, AnalyzerNotFound)  # every metric that handled a missing analyzer handles it


def test_a_file_that_differs_from_its_pin_is_never_loaded(tiny, tmp_path, monkeypatch):
    folder = tmp_path / "analyzers" / "tst"
    folder.mkdir(parents=True)
    shutil.copyfile(tiny, folder / "tst.hfstol")
    card = LanguageCard(code="tst", name="Test", analyzers=AnalyzerDecl(strict="tst.hfstol",
                                                                         sha256={"tst.hfstol": "A" * 64}))
    loads = []
    monkeypatch.setattr("mteval_gui.fst.registry.load_analyzer", lambda p: loads.append(p))
    ctx = ScoringContext("eng", "tst", target_card=card, options={"analyzers_dir": str(tmp_path / "analyzers")})
    with pytest.raises(AnalyzerUnusable) as err:
        shared_analyzer(ctx, "strict")
    assert loads == []
    assert (f"{folder / 'tst.hfstol'} differs from the language card's pin (sha256 {sha256_file(tiny)}, "
            f"the card expects {'a' * 64})") in str(err.value)


def _evaluate(args: list[str], tmp_path: Path, analyzers: Path) -> tuple[int, dict, str]:
    env = _child_env(tmp_path)
    env["MTEVAL_ANALYZERS"] = str(analyzers)
    out = tmp_path / "card.json"
    cmd = [sys.executable, "-c", "import sys; from mteval_gui.cli import main; sys.exit(main())", "evaluate",
           *args, "--bootstrap", "0", "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    card = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    return proc.returncode, card, proc.stderr


def _cli(args: list[str], tmp_path: Path, analyzers: Path) -> subprocess.CompletedProcess[str]:
    """``mteval ARGS`` in a fresh process: a crash of the lookup library would show as its exit status."""
    env = _child_env(tmp_path)
    env["MTEVAL_ANALYZERS"] = str(analyzers)
    return subprocess.run([sys.executable, "-c", "import sys; from mteval_gui.cli import main; sys.exit(main())",
                           *args], capture_output=True, text=True, timeout=600, env=env)


def test_scoring_with_a_truncated_analyzer_leaves_the_fst_metrics_null(tiny, tmp_path):
    bad = truncated_copy(tiny, tmp_path / "crk-cut.hfstol", tiny.stat().st_size // 2)
    demo = demo_dir()
    rc, card, err = _evaluate(["--corpus", str(demo / "crk-verbs.jsonl"), "--run", str(demo / "crk-verbs.good.jsonl"),
                               "--analyzer", str(bad), "--metrics", "core.fst", "core.morph", "core.chrf"],
                              tmp_path, tmp_path / "none")
    assert rc == 0, err
    assert card["scores"]["fst_acceptance_rate"] is None and card["scores"]["morphological_accuracy"] is None
    assert card["metric_availability"]["core.fst"] == card["metric_availability"]["core.morph"] == "unavailable"
    assert card["metric_reasons"]["core.fst"].startswith(f"the strict analyzer for crk cannot be used: {bad}: not a "
                                                         "readable HFST transducer (the file is truncated")
    assert card["scores"]["chrf_plus_plus"] is not None  # the rest of the run is scored
    assert card["fst"]["file"] is None


@pytest.mark.shared_data
def test_scoring_never_loads_an_installed_analyzer_that_differs_from_its_pin(shared_data, tmp_path):
    from tests.fst._support import install_crk

    base = tmp_path / "analyzers"
    paths = install_crk(shared_data, base)
    strict = paths["strict"]
    data = bytearray(strict.read_bytes())
    data[-3] ^= 0x01  # a flipped bit in the last transition's weight field: still a valid-looking transducer
    strict.write_bytes(bytes(data))
    demo = demo_dir()
    rc, card, err = _evaluate(["--corpus", str(demo / "crk-verbs.jsonl"), "--run", str(demo / "crk-verbs.good.jsonl"),
                               "--metrics", "core.fst", "core.morph", "core.ortho"], tmp_path, base)
    assert rc == 0, err
    assert card["scores"]["fst_acceptance_rate"] is None and card["scores"]["morphological_accuracy"] is None
    reason = card["metric_reasons"]["core.fst"]
    assert f"{strict} differs from the language card's pin" in reason
    assert "the card expects 489ae191edb03c76ecd7a3260a33eb331ebf2701dae18842009ac45efe27a54e" in reason
    assert card["metric_availability"]["core.fst"] == "unavailable"
    listed = _cli(["analyzers", "list"], tmp_path, base)  # what the list says is what scoring does
    assert listed.returncode == 0, listed.stderr
    assert (f"{strict}  sha256 {sha256_file(strict)} (DIFFERS from card pin "
            "489ae191edb03c76ecd7a3260a33eb331ebf2701dae18842009ac45efe27a54e)") in listed.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are POSIX")
def test_non_regular_files_are_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.hfstol"
    os.mkfifo(fifo)
    for p, what in ((fifo, "not a regular file"), (tmp_path, "a folder"), (Path("/dev/zero"), "not a regular file")):
        with pytest.raises(AnalyzerError, match=f"{p}: {what}, not an analyzer file"):
            load_analyzer(p)
        ctx = ScoringContext("eng", "tst", options={"analyzer_path": str(p)})
        with pytest.raises(AnalyzerNotFound, match=f"{p} is not a regular file"):
            shared_analyzer(ctx, "strict")


def test_language_codes_that_are_paths_have_no_analyzer(tiny, tmp_path):
    from mteval_gui.fst import find_analyzer

    evil = tmp_path / "evil"
    evil.mkdir()
    shutil.copyfile(tiny, evil / "x.hfstol")
    base = tmp_path / "analyzers"
    base.mkdir()
    for code in ("../evil", "..", "CRK", "cr", "crkk", ""):
        card = LanguageCard.model_construct(code=code, name="x", analyzers=AnalyzerDecl(strict="x.hfstol"))
        assert find_analyzer(card, "strict", lang=code, base=base) is None
    # a card or manifest naming a file outside the language's folder is not followed
    (base / "tst").mkdir()
    (base / "tst" / "analyzers.json").write_text(json.dumps({"strict": {"file": "../../evil/x.hfstol"}}))
    card = LanguageCard(code="tst", name="Test", analyzers=AnalyzerDecl(descriptive="../../evil/x.hfstol"))
    assert find_analyzer(card, "strict", lang="tst", base=base) is None
    assert find_analyzer(card, "descriptive", lang="tst", base=base) is None


def test_analyzers_list_marks_a_damaged_file(tiny, tmp_path, monkeypatch, capsys):
    from mteval_gui.cli import main
    from mteval_gui.fst.install import install_analyzer

    base = tmp_path / "analyzers"
    (base / "Not-A-Code").mkdir(parents=True)  # folders that are not language codes are not listed
    res = install_analyzer("tst", tiny, base=base)
    installed = res.files[0].path
    installed.write_bytes(tiny.read_bytes()[:200])
    monkeypatch.setenv("MTEVAL_ANALYZERS", str(base))
    assert main(["analyzers", "list"]) == 0
    out = capsys.readouterr().out
    assert (f"strict       {installed}  sha256 {sha256_file(installed)} (no pin; DAMAGED: the file is truncated "
            "(it ends inside the symbol table; 200 bytes))") in out
    assert "Not-A-Code" not in out


def test_installing_a_corrupt_analyzer_is_refused_and_nothing_is_left(tiny, tmp_path):
    # hfst took this file (same size, valid headers) and crashed with SIGSEGV on the first lookup of scoring
    bad = corrupt_first_transitions(tiny, tmp_path / "corrupt.hfstol")
    base = tmp_path / "analyzers"
    proc = _cli(["analyzers", "install", "tst", str(bad)], tmp_path, base)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == (
        "mteval: error: corrupt.hfstol: not a readable HFST transducer (corrupt index table (a target beyond the "
        "target table))")
    assert not base.exists() or sorted(p.name for p in base.iterdir()) == []  # no staging folder, no tst folder


def test_scoring_a_workspace_run_with_a_corrupt_analyzer_finishes_the_run(tiny, tmp_path):
    import sqlite3

    bad = corrupt_first_transitions(tiny, tmp_path / "corrupt.hfstol")
    demo = demo_dir()
    db = str(tmp_path / "ws.sqlite")
    none = tmp_path / "no-analyzers"
    for args in (["import", "corpus", str(demo / "crk-verbs.jsonl"), "--id", "c"],
                 ["import", "run", str(demo / "crk-verbs.good.jsonl"), "--corpus", "c"]):
        proc = _cli(["--db", db, *args], tmp_path, none)
        assert proc.returncode == 0, proc.stderr
    proc = _cli(["--db", db, "score", "--all", "--analyzer", str(bad), "--metrics", "core.fst", "core.chrf",
                 "--bootstrap", "0"], tmp_path, none)
    assert proc.returncode == 0, proc.stderr  # was: Segmentation fault (exit 139), the run left "scoring"
    assert ("core.fst: unavailable — the strict analyzer for crk cannot be used: "
            f"{bad}: not a readable HFST transducer (corrupt index table") in proc.stdout
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT run_id, status FROM runs").fetchall() == [("crk-demo-good", "scored")]
