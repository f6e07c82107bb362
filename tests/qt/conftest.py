"""Qt test fixtures.

``_dangling_qthreads`` (autouse) records every ``QThread`` started during a test and fails
the test if one is still running when it ends: background work must always be cancelled
and joined, also when a window closes. ``_no_held_keys`` (autouse) lets go of the keyboard
modifiers a test's key clicks leave held (Qt keeps the modifiers of the last key event), so
that no test sees Shift held down by the one before it. ``window`` is the main window on no
workspace, shown at 1400×860 and closed after the test.
"""

from __future__ import annotations

import traceback

import pytest


def _caller() -> str:
    stack = traceback.extract_stack()[:-2]
    for frame in reversed(stack):
        if "mteval_gui" in frame.filename or "/tests/" in frame.filename:
            return f"{frame.filename}:{frame.lineno}"
    return "unknown"


@pytest.fixture(autouse=True)
def _no_held_keys(qapp):
    yield
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QWidget

    if QGuiApplication.queryKeyboardModifiers() != Qt.KeyboardModifier.NoModifier or \
            QGuiApplication.keyboardModifiers() != Qt.KeyboardModifier.NoModifier:
        w = QWidget()
        QTest.keyRelease(w, Qt.Key.Key_Shift, Qt.KeyboardModifier.NoModifier)
        w.deleteLater()


@pytest.fixture(autouse=True)
def _dangling_qthreads(monkeypatch, qtbot):
    from PySide6.QtCore import QThread

    # strong references (to the thread and its parent) so that a leaked thread is reported
    # here instead of aborting the process when its owner is garbage-collected mid-run
    started: list[tuple[QThread, object, str]] = []
    original_start = QThread.start

    def start(self, *args, **kwargs):
        started.append((self, self.parent(), _caller()))
        return original_start(self, *args, **kwargs)

    monkeypatch.setattr(QThread, "start", start)
    yield
    from PySide6.QtCore import QCoreApplication

    QCoreApplication.processEvents()
    dangling = []
    for thread, _owner, where in started:
        try:
            if thread.isRunning():
                dangling.append((thread, where))
        except RuntimeError:  # C++ object already deleted: it is not running
            continue
    def ended(thread: QThread) -> bool:
        try:
            return thread.isFinished()
        except RuntimeError:  # deleted once finished
            return True

    for thread, _ in dangling:
        thread.quit()
        qtbot.waitUntil(lambda t=thread: ended(t), timeout=10000)
    if dangling:
        places = "\n".join(f"  started at {where}" for _, where in dangling)
        started.clear()
        pytest.fail(f"{len(dangling)} QThread(s) still running after the test:\n{places}", pytrace=False)


@pytest.fixture
def shown_errors(monkeypatch) -> list[BaseException]:
    """The errors the GUI shows (through its one error path) instead of message boxes."""
    from mteval_gui.qt import dialogs

    shown: list[BaseException] = []
    monkeypatch.setattr(dialogs, "show_error", lambda parent, exc: shown.append(exc))
    return shown


SMALL_ENTRIES = [
    ("e1", "I see the dog", "wâpamêw atim", 1),
    ("e2", "she walks", "pimohtêw", 2),
    ("e3", "we eat", "mîcisoyâhk", 3),
    ("e4", "the dog runs", "pimipahtâw atim", 2),
    ("e5", "they sing", "nikamowak", 5),
]


def make_small_workspace(path):
    """A workspace with one Cree corpus (5 entries) and two runs, through the store API."""
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.store import Workspace, repo

    ws = Workspace(path)
    corpus = Corpus(corpus_id="mini", language_pair=LanguagePair(source="eng", target="crk"),
                    entries=[Entry(id=i, source=s, reference=r, difficulty=d) for i, s, r, d in SMALL_ENTRIES])
    repo.add_corpus(ws, corpus)
    good = Run(meta=RunMeta(run_id="good", model_slug="model-good"), corpus_id="mini",
               outputs=[Output(id=i, predicted=r) for i, _, r, _ in SMALL_ENTRIES])
    poor = Run(meta=RunMeta(run_id="poor", model_slug="model-poor"), corpus_id="mini",
               outputs=[Output(id="e1", predicted="wapamew atim"), Output(id="e2", predicted="she walks"),
                        Output(id="e3", predicted="", error="timeout"), Output(id="e4", predicted="atim")])
    repo.add_run(ws, good)
    repo.add_run(ws, poor)
    return ws


@pytest.fixture
def small_ws(tmp_path):
    ws = make_small_workspace(tmp_path / "small.sqlite")
    yield ws
    ws.close()


@pytest.fixture(scope="session")
def scored_template(tmp_path_factory):
    """The small workspace with both runs scored (built once per session, copied per test)."""
    from mteval_gui.app.scoring import score_workspace_run

    path = tmp_path_factory.mktemp("scored") / "scored.sqlite"
    ws = make_small_workspace(path)
    for run_id in ("good", "poor"):
        score_workspace_run(ws, run_id)
    ws.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    ws.close()
    return path


@pytest.fixture
def scored_ws(scored_template, tmp_path):
    import shutil

    from mteval_gui.store import Workspace

    target = tmp_path / "scored.sqlite"
    shutil.copy2(scored_template, target)
    ws = Workspace(target)
    yield ws
    ws.close()


@pytest.fixture
def french(qapp):
    """The French translation installed and the locale set to French for one test."""
    from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

    from mteval_gui.qt.i18n import qm_path

    t = QTranslator()
    assert t.load(str(qm_path("fr")))
    QCoreApplication.installTranslator(t)
    previous = QLocale()
    QLocale.setDefault(QLocale("fr"))
    yield
    QCoreApplication.removeTranslator(t)
    QLocale.setDefault(previous)


@pytest.fixture
def window(qtbot):
    from mteval_gui.app.preferences import AppSettings
    from mteval_gui.qt.main import build_window

    w = build_window(AppSettings())
    qtbot.addWidget(w)
    w.resize(1400, 860)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def focused_keys(*keys) -> None:
    """Key clicks sent where a reviewer's keystrokes go: the widget that has the keyboard focus."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    for key in keys:
        widget = QApplication.focusWidget()
        assert widget is not None
        QTest.keyClick(widget, key)


def count_review_loads(monkeypatch) -> list[str]:
    """The entries whose review pane is read from now on (``load_review_data``), in order."""
    from mteval_gui.app import entry_review

    loads: list[str] = []
    real = entry_review.load_review_data

    def counting(ws, corpus_id, entry_id, runs):
        loads.append(entry_id)
        return real(ws, corpus_id, entry_id, runs)

    monkeypatch.setattr(entry_review, "load_review_data", counting)
    return loads
