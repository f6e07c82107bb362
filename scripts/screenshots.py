"""Render the main views of the GUI offscreen to docs/screenshots/*.png (shown in the README).

    python scripts/screenshots.py [--out docs/screenshots] [--lang fr]

Builds the demo workspace in a temporary user folder, scores it, records a few example
ratings and audit answers by a demo reviewer (so the review columns, the validation tab and
its linter and FST audit pages have content),
then opens each view in an offscreen window and saves it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
REPO = Path(__file__).resolve().parent.parent


def _settle(app, rounds: int = 5) -> None:
    for _ in range(rounds):
        app.processEvents()


def _mark_spans(editor) -> None:
    """Mark the output's first word a minor spelling error and its last a major addition, as keys would."""
    from PySide6.QtGui import QTextCursor

    text = editor.output
    words = text.split()
    if len(words) < 2:
        return
    cur = editor.text.textCursor()
    for (start, end), severity, category in (((0, len(words[0])), "minor", "spelling"),
                                             ((text.rindex(words[-1]), len(text)), "major", "addition")):
        cur.setPosition(start)
        cur.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        editor.text.setTextCursor(cur)
        editor.mark(severity)
        editor.set_category(category)
    editor.correction_edit.setText(" ".join(words[:-1]))
    editor.commit_correction()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(REPO / "docs" / "screenshots"))
    ap.add_argument("--lang", default="en", choices=("en", "fr"))
    ap.add_argument("--analyzers", default=str(REPO.parent / "shared" / "data" / "crk" / "fst"),
                    help="folder with the Plains Cree .hfstol analyzers to install first (skipped if absent)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if args.lang == "en" else f"_{args.lang}"
    home = Path(tempfile.mkdtemp(prefix="mteval-shots-"))
    os.environ["MTEVAL_HOME"] = str(home)

    from mteval_gui.app.demo import build_demo_workspace, score_demo_workspace
    from mteval_gui.domain.judgments import Judgment, Reviewer
    from mteval_gui.store import judgments as jstore
    from mteval_gui.store import repo

    _install_analyzers(Path(args.analyzers))
    ws = build_demo_workspace()
    problems = score_demo_workspace(ws)
    for p in problems:
        print("demo:", p, file=sys.stderr)
    jstore.add_reviewer(ws, Reviewer(reviewer_id="demo-reviewer", name="Demo reviewer", languages=["crk", "eng"]))
    runs = {r["run_id"]: r for r in repo.list_runs(ws)}
    crk_runs = [r for r in runs if runs[r]["corpus_id"].startswith("demo-crk")]
    flawed = next(r for r in crk_runs if "flawed" in r)
    ids = repo.entry_ids(ws, runs[flawed]["corpus_id"])
    for i, eid in enumerate(ids[:6]):
        jstore.record_judgment(ws, Judgment(reviewer_id="demo-reviewer", run_id=flawed, entry_id=eid,
                                            adequacy=5 - (i % 3), fluency=4 - (i % 2), flagged=(i == 4)))
    _audit_answers(ws, crk_runs)
    db = ws.path
    ws.close()

    from mteval_gui.app.preferences import AppSettings
    from mteval_gui.qt.main import build_window, setup_application

    settings = AppSettings.load()
    app = setup_application(["screenshots"], args.lang, settings)
    window = build_window(settings)
    window.resize(1500, 920)
    window.show()
    window.open_workspace(db)
    window.entries_page.ratings.set_reviewer("demo-reviewer")
    _settle(app)

    def shot(name: str, widget=None) -> None:
        _settle(app)
        path = out / f"{name}{suffix}.png"
        (widget or window).grab().save(str(path))
        print(path)

    window.tabs.setCurrentWidget(window.runs_view)
    window.runs_view.select_runs(crk_runs)
    shot("runs")
    window.resize(window.minimumSizeHint())  # the ratings at the smallest window: no label clips
    window.open_entries([flawed])
    shot("ratings_minimum_size")
    window.resize(1500, 920)

    window.open_entries([flawed])
    page = window.entries_page
    target = next((eid for eid in ids if 0 < _value(page, flawed, eid, "core.fst") < 1),
                  next((eid for eid in ids if _verdict(page, flawed, eid) == "MISS"), ids[1]))
    page.select_entry(target)
    shot("entries_review")
    _mark_spans(page.ratings.span_editor)  # the demo reviewer marks two error spans and types a correction
    shot("error_spans")

    window.open_entries(crk_runs)
    page.select_entry(target)
    shot("entries_side_by_side")

    compare = window.extra_tabs.get("compare")
    if compare is not None:
        window.compare_runs(crk_runs)
        compare.compute_task.wait()  # computed in the background
        shot("compare")
    charts = window.extra_tabs.get("charts")
    if charts is not None:
        window.tabs.setCurrentWidget(charts)
        charts.set_corpus(runs[flawed]["corpus_id"])
        charts.set_kind("chrf")
        charts.draw_task.wait()  # the values are read in the background
        shot("charts_chrf")
        charts.set_kind("composite")
        charts.draw_task.wait()
        shot("charts_composite")
        charts.export(out / f"charts_composite{suffix}.svg")
    validation = window.extra_tabs.get("validation")
    if validation is not None:
        window.tabs.setCurrentWidget(validation)
        idx = validation.corpus.findData(runs[flawed]["corpus_id"])
        validation.corpus.setCurrentIndex(max(idx, 0))
        validation.compute()
        validation.study_task.wait()  # computed in the background
        shot("validation")
        corpus = runs[flawed]["corpus_id"]
        for key, page in (("audit_linter", validation.linter_audit), ("audit_fst", validation.fst_audit)):
            validation.pages.setCurrentWidget(page)
            page.scope.select(corpus, "", "demo-reviewer")  # shows the first item the reviewer left open
            page.queue_task.wait()  # the queue is read in the background
            shot(key)
        validation.pages.setCurrentIndex(0)

    window.open_workspace(home / "new-workspace.sqlite")  # an empty workspace: the first steps
    window.tabs.setCurrentWidget(window.runs_view)
    shot("first_steps")
    window.open_workspace(db)

    from mteval_gui.qt.import_dialog import ImportDialog

    bad = home / "broken-run.jsonl"
    bad.write_text('{"id": "1", "predicted": "atim"}\n{"id": 2, "predicted": \n{"id": "nope", "predicted": "x"}\n'
                   '{"predicted": "no id"}\n', encoding="utf-8")
    dlg = ImportDialog(window.ws, "run", window)
    dlg.resize(1000, 560)
    idx = dlg.corpus_combo.findData(runs[flawed]["corpus_id"])
    dlg.corpus_combo.setCurrentIndex(idx)
    dlg.set_path(bad)
    done = []
    dlg.import_finished.connect(done.append)
    dlg.do_import()
    while not done:
        app.processEvents()
    dlg.show()
    shot("import_rejected", dlg)
    dlg.close()
    window.close()
    _settle(app)
    return 0


def _audit_answers(ws, run_ids: list[str]) -> None:
    """A few Task B and Task C answers by the demo reviewer, so the audit pages show results."""
    from mteval_gui.app import review
    from mteval_gui.domain.judgments import Judgment
    from mteval_gui.store import judgments as jstore

    for item in review.linter_audit_queue(ws, run_ids)[:1]:
        jstore.record_judgment(
            ws,
            Judgment(
                reviewer_id="demo-reviewer",
                run_id=item["run_id"],
                entry_id=item["entry_id"],
                task="B",
                payload={"same_meaning": "Yes", "natural": "B better", "classes": item["classes"]},
            ),
        )
    answers = {"Edmonton": ("Yes", "Name"), "Cree": ("Yes", "Name"), "nipaw": ("No", None), "they": ("No", None),
               "sleep": ("No", None), "kinipan": ("Unsure", None)}
    for run_id, entry_id, word in review.fst_audit_queue(ws, run_ids):
        if word in answers:
            valid, kind = answers[word]
            jstore.record_judgment(ws, Judgment(reviewer_id="demo-reviewer", run_id=run_id, entry_id=entry_id, task="C",
                                                payload={"word": word, "valid": valid, "kind": kind}))


def _install_analyzers(folder: Path) -> None:
    """Install the crk analyzers found in ``folder`` so the FST panel has content."""
    if not folder.is_dir():
        print(f"no analyzers at {folder}: FST columns stay empty", file=sys.stderr)
        return
    from mteval_gui.cards import try_load_card
    from mteval_gui.fst.install import install_analyzer

    card = try_load_card("crk")
    for name in ("crk-strict-analyzer-for-dictionary.hfstol", "crk-descriptive-analyzer.hfstol"):
        if (folder / name).is_file():
            install_analyzer("crk", folder / name, card=card)


def _value(page, run_id: str, entry_id: str, metric: str) -> float:
    frame = page.model.frame
    values = frame.run(run_id).metrics.get(metric)
    row = frame.row_of(entry_id)
    return -1.0 if values is None or row is None else float(values[row])


def _verdict(page, run_id: str, entry_id: str):
    frame = page.model.frame
    run = frame.run(run_id)
    row = frame.row_of(entry_id)
    return None if run.lint_verdict is None or row is None else run.lint_verdict[row]


if __name__ == "__main__":
    sys.exit(main())
