"""Every hostile input through the real import paths: 0 crashes, 0 hangs, 0 silent acceptances.

Each file made by :mod:`tests.hostile.make_inputs` is imported into a workspace that holds
the corpus, run and reviewer it refers to: in this process through the functions the GUI
and the CLI call, and, for a representative subset, through ``python -m mteval_gui`` in a
subprocess. An input is *rejected cleanly* when the import raises ``InputError`` whose every
defect names the file, the workspace is byte-for-byte unchanged and no file appeared beside
it. Anything else is a *crash* (another exception or a traceback), an *acceptance* or, past
the per-input time limit, a *hang*. The tally is printed; the assertion is that every input
was rejected cleanly (and that the valid controls were accepted, so the harness can tell).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mteval_gui.domain.judgments import Reviewer
from mteval_gui.errors import Defect, InputError
from mteval_gui.io.benchmark import read_responses
from mteval_gui.io.judgments import read_judgments
from mteval_gui.store import Workspace
from mteval_gui.store import judgments as J
from tests.benchmarks.helpers import read_suite
from tests.hostile.make_inputs import (
    CORPUS_ID,
    ENTRY_IDS,
    REVIEWER_ID,
    RUN_ID,
    HostileInput,
    make_controls,
    make_inputs,
)

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0  # per input: far beyond what any rejection takes; only a blocked reader reaches it
CLI_SUBSET = (
    "corpus-json.lone-high-surrogate", "corpus-json.deep-array-100000", "corpus-jsonl.duplicate-key",
    "corpus-csv.unclosed-quote", "corpus-tsv.missing-column", "corpus-json.nan", "corpus-target-is-a-path",
    "corpus.fifo.jsonl", "corpus.dev-zero.json", "corpus-text.raw-nul", "run-jsonl.digits-5000-id",
    "run-json.overflow-exponent", "run.fifo.jsonl", "judgments-version-beyond-int64", "judgments-csv.payload-nan",
    "judgments-json.duplicate-key", "glossary-json.duplicate-key", "glossary.dev-zero.tsv",
    "responses-json.deep-object-100000", "responses.fifo.jsonl",
)


def _importer() -> Any:
    from mteval_gui.app import imports

    return imports


def _make_workspace(path: Path) -> None:
    from mteval_gui.domain.corpus import Corpus, LanguagePair
    from mteval_gui.domain.run import Run, RunMeta
    from mteval_gui.io.records import make_entry, make_output
    from mteval_gui.store import repo

    ws = Workspace(path)
    corpus = Corpus.model_construct(
        corpus_id=CORPUS_ID,
        version="1",
        language_pair=LanguagePair(source="eng", target="crk"),
        license=None,
        attribution=None,
        description=None,
        metadata={},
        entries=[make_entry(e, f"source {e}", f"reference {e}") for e in ENTRY_IDS],
    )
    repo.add_corpus(ws, corpus)
    run = Run(meta=RunMeta(run_id=RUN_ID), corpus_id=CORPUS_ID, outputs=[])
    run.outputs = [make_output(e, f"output {e}") for e in ENTRY_IDS]
    repo.import_run(ws, run)
    J.add_reviewer(ws, Reviewer(reviewer_id=REVIEWER_ID, name="Ana"))
    ws.close()


def _suite(folder: Path) -> Path:
    d = folder / "valid-suite"
    d.mkdir()
    (d / "grammar.json").write_text('[{"id": "g1", "prompt": "p", "eval_method": "exact_match", "expected": "a"},'
                                    ' {"id": "g2", "prompt": "q", "eval_method": "exact_match", "expected": "b"}]\n',
                                    encoding="utf-8")
    return d


def snapshot(db: Path) -> tuple[str, frozenset[str]]:
    """(digest of the database content, files beside it): what "unchanged" means."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        digest = hashlib.sha256("\n".join(conn.iterdump()).encode("utf-8")).hexdigest()
    finally:
        conn.close()
    files = frozenset(p.name for p in db.parent.iterdir() if not p.name.endswith(("-wal", "-shm")))
    return digest, files


def attempt(item: HostileInput, db: Path, suite: Path) -> Any:
    """Import ``item`` the way the application does; returns what the import returned."""
    imp = _importer()
    if item.target == "suite":
        return read_suite(item.path)
    if item.target == "responses":
        return read_responses(item.path, read_suite(suite))
    ws = Workspace(db)
    try:
        if item.target == "corpus":
            return imp.import_corpus_file(ws, item.path, ref_path=item.options.get("ref_path"),
                                          source_lang="eng", target_lang="crk")
        if item.target == "run":
            return imp.import_run_file(ws, item.path, corpus_id=CORPUS_ID)
        if item.target == "glossary":
            return imp.import_glossary_file(ws, item.path)
        if item.target == "judgments":
            fmt = "csv" if item.path.suffix == ".csv" else "json"
            read = read_judgments(item.path, fmt=fmt)
            return J.import_log(ws, read.reviewers, read.judgments, file=read.name, defects=read.defects)
        raise ValueError(item.target)
    finally:
        ws.close()


@dataclass
class Outcome:
    kind: str  # rejected | crashed | accepted | hung
    detail: str = ""
    located: bool = False


def _release(path: Path) -> None:
    """Unblock a reader stuck on a FIFO (so that the test process can end)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return
    os.close(fd)


def classify(item: HostileInput, db: Path, suite: Path, call: Callable[[], Any] | None = None) -> Outcome:
    before = snapshot(db)
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = (call or (lambda: attempt(item, db, suite)))()
        except BaseException as exc:  # noqa: BLE001 - the harness records every way an import can end
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(TIMEOUT)
    if t.is_alive():
        _release(item.path)
        return Outcome("hung", f"no answer after {TIMEOUT:.0f} s")
    if snapshot(db) != before:
        return Outcome("crashed", "the workspace changed")
    err = box.get("error")
    if err is None:
        value = box.get("value")
        if item.target == "suite":
            return _suite_outcome(item, value)
        return Outcome("accepted", repr(value)[:200])
    if not isinstance(err, InputError):
        return Outcome("crashed", f"{type(err).__name__}: {err}"[:300])
    shown = [str(d) for d in err.defects]
    named = {str(item.path), item.options.get("ref_path")}
    foreign = [s for s, d in zip(shown, err.defects, strict=True) if d.file not in named or not d.message.strip()]
    if not shown or foreign:
        return Outcome("crashed", "defects do not name the file: " + "; ".join(foreign or ["(none)"])[:300])
    return Outcome("rejected", shown[0][:300], located=any(d.line is not None for d in err.defects))


def _suite_outcome(item: HostileInput, suite: Any) -> Outcome:
    errors = [d for d in suite.defects if d.severity == "error" and d.file == "reasoning.json"]
    scored = [t.id for t in suite.tests if t.category == "reasoning"]
    if errors and not scored:
        d = errors[0]
        return Outcome("rejected", f"{d.file}:{d.line}: {d.message}"[:300], located=d.line is not None)
    return Outcome(
        "accepted", f"tests scored from the file: {scored}; defects: {[d.message for d in suite.defects]}"[:300]
    )


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> tuple[list[HostileInput], Path, Path]:
    root = tmp_path_factory.mktemp("hostile")
    inputs = make_inputs(root / "inputs")
    wsdir = root / "workspace"
    wsdir.mkdir()
    db = wsdir / "ws.sqlite"
    _make_workspace(db)
    return inputs, db, _suite(root)


def _report(title: str, results: list[tuple[HostileInput, Outcome]]) -> str:
    tally = Counter(o.kind for _, o in results)
    located = sum(1 for _, o in results if o.kind == "rejected" and o.located)
    lines = [f"{title}: tried {len(results)} / rejected cleanly {tally['rejected']} ({located} with a line) / "
             f"crashed {tally['crashed']} / accepted {tally['accepted']} / hung {tally['hung']}"]
    for item, o in results:
        if o.kind != "rejected":
            lines.append(f"  {o.kind.upper():<8} {item.name}: {o.detail}")
    return "\n".join(lines)


@pytest.mark.slow
def test_every_hostile_input_is_rejected_cleanly_in_process(hostile, capsys):
    inputs, db, suite = hostile
    assert len(inputs) >= 150
    results = [(item, classify(item, db, suite)) for item in inputs]
    report = _report("hostile inputs (in process)", results)
    with capsys.disabled():
        print("\n" + report)
    assert all(o.kind == "rejected" for _, o in results), report


def test_valid_controls_are_accepted(tmp_path):
    controls = make_controls(tmp_path / "controls")
    suite = _suite(tmp_path)
    for item in controls:
        db = tmp_path / f"ws-{item.name}.sqlite"
        _make_workspace(db)
        value = attempt(item, db, suite)
        if item.target == "suite":
            assert _suite_outcome(item, value).kind == "accepted", item.name
        else:
            assert value is not None, item.name


def _cli(item: HostileInput, db: Path, suite: Path) -> list[str]:
    base = [sys.executable, "-m", "mteval_gui", "--db", str(db)]
    p = str(item.path)
    if item.target == "corpus":
        args = ["import", "corpus", p, "--source-lang", "eng", "--target-lang", "crk"]
        if "ref_path" in item.options:
            args += ["--ref-file", item.options["ref_path"]]
    elif item.target == "run":
        args = ["import", "run", p, "--corpus", CORPUS_ID]
    elif item.target == "glossary":
        args = ["import", "glossary", p]
    elif item.target == "judgments":
        args = ["judgments", "import", p] + (["--format", "json"] if item.path.suffix != ".csv" else [])
    elif item.target == "responses":
        args = ["ewebench", "score", "--suite", str(suite), "--responses", p]
    else:
        raise ValueError(item.target)
    return base + args


@pytest.mark.slow
def test_a_subset_is_rejected_cleanly_through_the_command_line(hostile, capsys):
    inputs, db, suite = hostile
    by_name = {i.name: i for i in inputs}
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    }
    results = []
    for name in CLI_SUBSET:
        item = by_name[name]
        before = snapshot(db)
        try:
            proc = subprocess.run(_cli(item, db, suite), capture_output=True, text=True, timeout=TIMEOUT * 2,
                                  env=env, stdin=subprocess.DEVNULL, cwd=str(db.parent))
        except subprocess.TimeoutExpired:
            _release(item.path)
            results.append((item, Outcome("hung", f"no answer after {TIMEOUT * 2:.0f} s")))
            continue
        err = proc.stderr
        if "Traceback" in err or proc.returncode not in (0, 2):
            results.append((item, Outcome("crashed", f"exit {proc.returncode}: {err[-300:]}")))
        elif snapshot(db) != before:
            results.append((item, Outcome("crashed", "the workspace changed")))
        elif proc.returncode == 0:
            results.append((item, Outcome("accepted", proc.stdout[-200:])))
        elif not err.startswith(str(item.path)) or "nothing was written" not in err:
            results.append((item, Outcome("crashed", f"unexpected message: {err[:300]}")))
        else:
            results.append(
                (item, Outcome("rejected", err.splitlines()[0], located=err.split(":")[1].strip().isdigit()))
            )
    report = _report("hostile inputs (command line)", results)
    with capsys.disabled():
        print("\n" + report)
    assert all(o.kind == "rejected" for _, o in results), report


def test_the_harness_counts_a_crash_an_acceptance_and_a_change(hostile, tmp_path):
    inputs, _, suite = hostile
    item = inputs[0]
    db = tmp_path / "own.sqlite"
    _make_workspace(db)

    def boom() -> None:
        raise KeyError("x")

    assert classify(item, db, suite, boom).kind == "crashed"
    assert classify(item, db, suite, lambda: "fine").kind == "accepted"

    def raising(exc: Exception) -> Callable[[], None]:
        def call() -> None:
            raise exc
        return call

    assert classify(item, db, suite, raising(InputError([Defect("elsewhere.json", 1, "bad")]))).kind == "crashed"
    assert classify(item, db, suite, raising(InputError([Defect(str(item.path), 3, "bad")]))).kind == "rejected"

    def writes() -> None:
        ws = Workspace(db)
        try:
            J.add_reviewer(ws, Reviewer(reviewer_id="intruder", name="I"))
        finally:
            ws.close()
        raise InputError([Defect(str(item.path), 3, "bad")])

    assert classify(item, db, suite, writes).detail == "the workspace changed"


def test_inputs_are_small_files(tmp_path):
    inputs = make_inputs(tmp_path / "inputs")
    sizes = [p.stat().st_size for p in (tmp_path / "inputs").rglob("*") if p.is_file() and not p.is_symlink()]
    assert max(sizes) < 1_000_000
    assert len({i.name for i in inputs}) == len(inputs)
    shutil.rmtree(tmp_path / "inputs")
