"""The window's action table: one row per command, from which the menus, the shortcuts and the
keyboard-shortcuts help (Review ▸ Keyboard shortcuts) are built.

A row (:class:`Act`) names the command, its menu text, the slot it calls on the window, its keys
and where the keys work: ``window`` (anywhere in the window) or ``entries`` (while the entries
table has the focus: the action is added to the table with a widget-with-children context, so
Return keeps its meaning in the search field and the dialogs). The keys of *Next unreviewed* come
from the key map shared with review packs (:mod:`mteval_gui.domain.review_keys`), which stays the
one source of the rating keys: the help lists them from there, and the error-span and audit keys
from the tables their widgets bind (:data:`~mteval_gui.qt.ratings.SPAN_SHORTCUTS`,
:data:`~mteval_gui.qt.audit_common.AUDIT_KEYS` and the audits' answer tables). So the help lists
exactly what is bound; ``tests/qt/test_actions.py`` checks it against the window's shortcuts.

Menu texts are translated in the ``MainWindow`` context (the French catalog keeps them there).
"""

# ruff: noqa: E501  (each QCoreApplication.translate call stays whole on one line for pyside6-lupdate)

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from itertools import groupby
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

from mteval_gui.domain.review_keys import RATING_KEYS
from mteval_gui.qt.i18n import LANGUAGES, QT_TRANSLATE_NOOP
from mteval_gui.qt.ratings import SPAN_SHORTCUTS, key_sequences, rating_sequences
from mteval_gui.qt.review_pane import GENERATOR_SHORTCUTS

if TYPE_CHECKING:
    from mteval_gui.qt.mainwindow import MainWindow

Key = str | QKeySequence.StandardKey
Slot = Callable[["MainWindow"], Callable[..., object]]


def _t(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


@dataclass(frozen=True)
class Act:
    name: str  # object name of the QAction
    text: str  # menu text (QT_TRANSLATE_NOOP, context MainWindow)
    slot: Slot  # the window -> what the action calls
    keys: tuple[Key, ...] | Callable[[], list[QKeySequence]] = ()
    help: str = ""  # what the shortcuts help says (default: the menu text)
    tip: str = ""
    checkable: bool = False
    needs_workspace: bool = False
    scope: Literal["window", "entries"] = "window"

    def sequences(self) -> list[QKeySequence]:
        if callable(self.keys):
            return self.keys()
        out: list[QKeySequence] = []
        for k in self.keys:
            out.append(QKeySequence(k))  # a standard key: its first binding
        return [s for s in out if not s.isEmpty()]


@dataclass(frozen=True)
class Menu:
    title: str
    items: tuple[Act | Menu | str, ...]  # "-": a separator; "recent", "languages": filled by the window


ORDER_ACTIONS = ("randomOrder", "stratifiedOrder", "informativeOrder")


def _order(w: MainWindow, name: str, shown: bool) -> None:
    """One review order at a time: the chosen one checked if it is shown, the others unchecked."""
    for other in ORDER_ACTIONS:
        w.menu_actions[other].setChecked(shown and other == name)


def _next_unrated_keys() -> list[QKeySequence]:
    return [s for b in RATING_KEYS if b.action == "next_unrated" for s in key_sequences(b)]


def _import(kind: str) -> Slot:
    return lambda w: lambda: w.import_file(kind)


def _open_settings(window: MainWindow) -> Callable[[], None]:
    def open_settings() -> None:
        from mteval_gui.qt.settings_dialog import SettingsDialog

        if window.ws is not None:
            SettingsDialog(window.ws, window).exec()
    return open_settings


def _help(name: str) -> Slot:
    def slot(w: MainWindow) -> Callable[[], None]:
        from mteval_gui.qt import help_dialogs

        fn = getattr(help_dialogs, name)
        return lambda: fn(w)
    return slot


def _gaps(window: MainWindow) -> Callable[[], None]:
    def show() -> None:
        from mteval_gui.qt.gaps_dialog import show_gaps

        show_gaps(window)
    return show


def _export(name: str, *args: str) -> Slot:
    def slot(w: MainWindow) -> Callable[[], None]:
        from mteval_gui.qt import exports, review_pack_dialog

        fn = getattr(review_pack_dialog if name == "export_pack" else exports, name)
        return lambda: fn(w, *args)
    return slot


MENUS: tuple[Menu, ...] = (
    Menu(QT_TRANSLATE_NOOP("MainWindow", "&File"), (
        Act("newWorkspace", QT_TRANSLATE_NOOP("MainWindow", "&New workspace…"), lambda w: w.new_workspace,
            (QKeySequence.StandardKey.New,)),
        Act("openWorkspace", QT_TRANSLATE_NOOP("MainWindow", "&Open workspace…"), lambda w: w.choose_workspace,
            (QKeySequence.StandardKey.Open,)),
        Menu(QT_TRANSLATE_NOOP("MainWindow", "Open &recent"), ("recent",)),
        Act("openDemo", QT_TRANSLATE_NOOP("MainWindow", "Open the &demo workspace"), lambda w: w.open_demo),
        "-",
        Act("importCorpus", QT_TRANSLATE_NOOP("MainWindow", "Import &corpus…"), _import("corpus"), ("Ctrl+I",), needs_workspace=True),
        Act("importRun", QT_TRANSLATE_NOOP("MainWindow", "Import r&un…"), _import("run"), ("Ctrl+Shift+I",), needs_workspace=True),
        Act("importGlossary", QT_TRANSLATE_NOOP("MainWindow", "Import &glossary…"), _import("glossary"), needs_workspace=True),
        Act("installAnalyzer", QT_TRANSLATE_NOOP("MainWindow", "Install &analyzer…"), _import("analyzer"), needs_workspace=True),
        Act("analyzerGaps", QT_TRANSLATE_NOOP("MainWindow", "Analyzer ga&ps…"), _gaps,
            tip=QT_TRANSLATE_NOOP("MainWindow", "The words the strict analyzer rejects, ranked, with exports for its maintainers"),
            needs_workspace=True),
        Act("importJudgments", QT_TRANSLATE_NOOP("MainWindow", "Import &judgments or review-pack answers…"),
            lambda w: w.import_judgments, needs_workspace=True),
        Act("importAnnotations", QT_TRANSLATE_NOOP("MainWindow", "Import Appraise or Pearmut annotations…"),
            _export("import_annotations"), needs_workspace=True),
        "-",
        Menu(QT_TRANSLATE_NOOP("MainWindow", "&Export"), (
            Act("exportRunCard", QT_TRANSLATE_NOOP("MainWindow", "Run card (JSON)…"), _export("export_run_card"),
                needs_workspace=True),
            Act("exportHarnessReport", QT_TRANSLATE_NOOP("MainWindow", "Harness report (JSON)…"),
                _export("export_harness_report"), needs_workspace=True),
            Act("exportEntries", QT_TRANSLATE_NOOP("MainWindow", "Entries (CSV)…"), _export("export_entries_csv"),
                needs_workspace=True),
            Act("exportRunsTable", QT_TRANSLATE_NOOP("MainWindow", "Runs table (LaTeX, Markdown, CSV)…"),
                _export("export_runs_table"), needs_workspace=True),
            Act("exportComparison", QT_TRANSLATE_NOOP("MainWindow", "Comparison table (LaTeX, Markdown, CSV)…"),
                _export("export_comparison_table"), needs_workspace=True),
            Act("exportJudgmentsCsv", QT_TRANSLATE_NOOP("MainWindow", "Judgments (CSV)…"), _export("export_judgments", "csv"),
                needs_workspace=True),
            Act("exportJudgmentsJson", QT_TRANSLATE_NOOP("MainWindow", "Judgments (JSON)…"), _export("export_judgments", "json"),
                needs_workspace=True),
            Act("exportChart", QT_TRANSLATE_NOOP("MainWindow", "Chart (PNG/SVG)…"), _export("export_chart"), needs_workspace=True),
            Act("exportBenchmark", QT_TRANSLATE_NOOP("MainWindow", "Benchmark results (ÈwéBench, JSON or CSV)…"),
                _export("export_benchmark_results")),
            Act("exportReviewPack", QT_TRANSLATE_NOOP("MainWindow", "Review pack for a speaker (HTML)…"), _export("export_pack"),
                needs_workspace=True),
            Act("exportAppraise", QT_TRANSLATE_NOOP("MainWindow", "Appraise ESA campaign (folder)…"),
                _export("export_campaign", "appraise"), needs_workspace=True),
            Act("exportPearmut", QT_TRANSLATE_NOOP("MainWindow", "Pearmut ESA campaign (JSON)…"),
                _export("export_campaign", "pearmut"), needs_workspace=True),
        )),
        "-",
        Act("settings", QT_TRANSLATE_NOOP("MainWindow", "&Settings…"), _open_settings,
            (QKeySequence.StandardKey.Preferences,), needs_workspace=True),
        "-",
        Act("quit", QT_TRANSLATE_NOOP("MainWindow", "&Quit"), lambda w: w.close, (QKeySequence.StandardKey.Quit,)),
    )),
    Menu(QT_TRANSLATE_NOOP("MainWindow", "&Runs"), (
        Act("scoreRuns", QT_TRANSLATE_NOOP("MainWindow", "&Score selected runs"), lambda w: lambda: w.score_runs(w.selected_runs()),
            ("Ctrl+R",), needs_workspace=True),
        Act("cancelScoring", QT_TRANSLATE_NOOP("MainWindow", "&Cancel scoring"), lambda w: w.scoring.cancel, ("Esc",)),
        "-",
        Act("openEntries", QT_TRANSLATE_NOOP("MainWindow", "Open &entries of selected runs"),
            lambda w: lambda: w.open_entries(w.selected_runs())),
        Act("compareRuns", QT_TRANSLATE_NOOP("MainWindow", "C&ompare selected runs"),
            lambda w: lambda: w.compare_runs(w.selected_runs())),
    )),
    Menu(QT_TRANSLATE_NOOP("MainWindow", "Revie&w"), (
        Act("reviewers", QT_TRANSLATE_NOOP("MainWindow", "&Reviewers…"), lambda w: w.manage_reviewers),
        Act("blindMode", QT_TRANSLATE_NOOP("MainWindow", "&Blind mode"), lambda w: w.entries_page.set_blind, ("Ctrl+B",),
            tip=QT_TRANSLATE_NOOP("MainWindow", "Hide metric values, verdicts and the reference while rating"), checkable=True),
        Act("randomOrder", QT_TRANSLATE_NOOP("MainWindow", "R&andomised order"),
            lambda w: lambda on: _order(w, "randomOrder", w.entries_page.set_random_order(on)),
            tip=QT_TRANSLATE_NOOP("MainWindow", "Show the entries in a shuffled order, fixed per reviewer"), checkable=True),
        Act("stratifiedOrder", QT_TRANSLATE_NOOP("MainWindow", "&Stratified order"),
            lambda w: lambda on: _order(w, "stratifiedOrder", w.entries_page.set_review_order("stratified", on)),
            tip=QT_TRANSLATE_NOOP("MainWindow", "Take the entries in turn from each system, difficulty and FST "
                                  "verdict (seeded per reviewer)"), checkable=True),
        Act("informativeOrder", QT_TRANSLATE_NOOP("MainWindow", "&Informative order"),
            lambda w: lambda on: _order(w, "informativeOrder", w.entries_page.set_review_order("informative", on)),
            tip=QT_TRANSLATE_NOOP("MainWindow", "First the entries where the metrics disagree most, the FST verdicts "
                                  "are new or the systems are furthest apart"), checkable=True),
        "-",
        Act("nextEntry", QT_TRANSLATE_NOOP("MainWindow", "&Next entry"), lambda w: w.entries_page.next_entry, ("Alt+Down",),
            scope="entries"),
        Act("previousEntry", QT_TRANSLATE_NOOP("MainWindow", "&Previous entry"), lambda w: w.entries_page.previous_entry,
            ("Alt+Up",), scope="entries"),
        Act("nextUnreviewed", QT_TRANSLATE_NOOP("MainWindow", "Next &unreviewed"), lambda w: w.entries_page.next_unreviewed,
            _next_unrated_keys, scope="entries"),
        Act("nextFlagged", QT_TRANSLATE_NOOP("MainWindow", "Next &flagged"), lambda w: w.entries_page.next_flagged,
            ("Shift+Return",), scope="entries"),
        Act("rateDocument", QT_TRANSLATE_NOOP("MainWindow", "Rate the &document…"), lambda w: w.entries_page.rate_document,
            ("Ctrl+Shift+D",), scope="entries",
            tip=QT_TRANSLATE_NOOP("MainWindow", "Rate the translation of the whole document of the current entry")),
        "-",
        Act("keyboardShortcuts", QT_TRANSLATE_NOOP("MainWindow", "&Keyboard shortcuts"), _help("show_shortcuts")),
    )),
    Menu(QT_TRANSLATE_NOOP("MainWindow", "&View"), (
        Act("refresh", QT_TRANSLATE_NOOP("MainWindow", "&Refresh"), lambda w: w.refresh_all, ("F5",),
            help=QT_TRANSLATE_NOOP("MainWindow", "reread the workspace (changes made by other programs appear by themselves)"),
            tip=QT_TRANSLATE_NOOP("MainWindow", "Reread the workspace (changes made by other programs are also picked up by "
                                "themselves)"), needs_workspace=True),
        "-",
        Act("entryColumns", QT_TRANSLATE_NOOP("MainWindow", "Entry &columns…"), lambda w: w.entries_page.choose_columns),
        Menu(QT_TRANSLATE_NOOP("MainWindow", "Interface &language"), ("languages",)),
    )),
    Menu(QT_TRANSLATE_NOOP("MainWindow", "&Help"), (
        Act("userGuide", QT_TRANSLATE_NOOP("MainWindow", "&User guide"), _help("open_user_guide"), ("F1",)),
        Act("glossary", QT_TRANSLATE_NOOP("MainWindow", "Metric &glossary"), _help("show_glossary")),
        Act("licences", QT_TRANSLATE_NOOP("MainWindow", "Data &licences"), _help("show_licences")),
        "-",
        Act("about", QT_TRANSLATE_NOOP("MainWindow", "&About mteval-gui"), _help("about")),
    )),
)

# the buttons of the Runs tab's first steps -> the actions they trigger
FIRST_STEPS = {"new": "newWorkspace", "open": "openWorkspace", "demo": "openDemo", "import_corpus": "importCorpus",
               "import_run": "importRun"}


def all_acts(items: tuple[Act | Menu | str, ...] = tuple(MENUS)) -> list[Act]:
    out: list[Act] = []
    for item in items:
        if isinstance(item, Act):
            out.append(item)
        elif isinstance(item, Menu):
            out += all_acts(item.items)
    return out


def build_menus(window: MainWindow) -> dict[str, QAction]:
    """The menu bar of ``window`` from :data:`MENUS`; returns the actions by name."""
    actions: dict[str, QAction] = {}

    def fill(menu: QMenu, items: tuple[Act | Menu | str, ...]) -> None:
        for item in items:
            if item == "-":
                menu.addSeparator()
            elif item == "recent":
                menu.aboutToShow.connect(_call(_fill_recent, window, menu))
            elif item == "languages":
                group = QActionGroup(menu)
                for code, name in LANGUAGES.items():
                    a = QAction(name, menu, checkable=True)
                    a.setChecked(code == (window.settings.language or "en"))
                    a.triggered.connect(_call(window.set_language, code))
                    group.addAction(a)
                    menu.addAction(a)
            elif isinstance(item, Menu):
                fill(menu.addMenu(_t(item.title)), item.items)
            elif isinstance(item, Act):
                actions[item.name] = _action(window, menu, item)

    for top in MENUS:
        fill(window.menuBar().addMenu(_t(top.title)), top.items)
    return actions


def _call(fn: Callable[..., object], *args: object) -> Callable[[], None]:
    """A slot that calls ``fn(*args)`` and takes no argument (what a signal sends is dropped)."""
    def slot() -> None:
        fn(*args)
    return slot


def _fill_recent(window: MainWindow, menu: QMenu) -> None:
    menu.clear()
    for path in window.settings.recent_workspaces:
        menu.addAction(path, _call(window.open_workspace, path))
    if not window.settings.recent_workspaces:
        menu.addAction(QCoreApplication.translate("MainWindow", "(none)")).setEnabled(False)


def _action(window: MainWindow, menu: QMenu, act: Act) -> QAction:
    a = QAction(_t(act.text), window)
    a.setObjectName(act.name)
    a.setShortcuts(act.sequences())
    a.setCheckable(act.checkable)
    if act.tip:
        a.setStatusTip(_t(act.tip))
    a.triggered.connect(act.slot(window))
    if act.scope == "entries":  # the keys work while the entries table has the focus
        a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        window.entries_page.table.addAction(a)
    menu.addAction(a)
    return a


# ----- the keyboard-shortcuts help ---------------------------------------------------------------
@dataclass(frozen=True)
class HelpRow:
    section: str
    keys: tuple[QKeySequence, ...]
    text: str


_REVIEW_HELP = {
    "rate": QT_TRANSLATE_NOOP("MainWindow", "rate the highlighted aspect and move on (adequacy, then fluency): 3 4 and 3 Tab 4 "
                            "both record adequacy 3, fluency 4"),
    "next_scale": QT_TRANSLATE_NOOP("MainWindow", "next aspect, without rating"),
    "previous_scale": QT_TRANSLATE_NOOP("MainWindow", "previous aspect, without rating"),
    "flag": QT_TRANSLATE_NOOP("MainWindow", "flag or unflag the entry"),
    "undo": QT_TRANSLATE_NOOP("MainWindow", "undo your last judgment"),
    "redo": QT_TRANSLATE_NOOP("MainWindow", "redo your last judgment"),
}


def help_rows() -> list[HelpRow]:
    """Every binding of the window, grouped: the action table, the rating keys of the shared key map,
    the error-span keys and the audit keys."""
    from mteval_gui.qt import audit_fst, audit_linter
    from mteval_gui.qt.audit_common import AUDIT_KEYS

    window_section, entries_section = QCoreApplication.translate("MainWindow", "Window"), QCoreApplication.translate("MainWindow", "Entries")
    acts = sorted((a for a in all_acts() if a.sequences()), key=lambda a: a.scope == "entries")
    rows = [HelpRow(entries_section if a.scope == "entries" else window_section, tuple(a.sequences()),
                    _t(a.help) if a.help else _t(a.text).replace("&", "")) for a in acts]
    for action in dict.fromkeys(b.action for b in RATING_KEYS):  # in the key map's order
        if action in _REVIEW_HELP:  # next_unrated is the action table's Next unreviewed
            rows.append(HelpRow(entries_section, tuple(rating_sequences(action)), _t(_REVIEW_HELP[action])))
    spans = QCoreApplication.translate("MainWindow", "Error spans (Entries)")
    rows += [HelpRow(spans, (QKeySequence(key),), QCoreApplication.translate("RatingsPanel", text))
             for key, _, text in SPAN_SHORTCUTS]
    forms = QCoreApplication.translate("MainWindow", "Generator forms (Entries)")
    rows += [HelpRow(forms, tuple(QKeySequence(k) for k, t in GENERATOR_SHORTCUTS if t == text),
                     QCoreApplication.translate("ReviewPane", text))
             for text in dict.fromkeys(t for _, t in GENERATOR_SHORTCUTS)]
    for section, options in ((QCoreApplication.translate("MainWindow", "Linter audit: same meaning?"), audit_linter.same_meaning_options()),
                             (QCoreApplication.translate("MainWindow", "Linter audit: both natural?"), audit_linter.natural_options()),
                             (QCoreApplication.translate("MainWindow", "FST audit: valid word?"), audit_fst.valid_options()),
                             (QCoreApplication.translate("MainWindow", "FST audit: kind of word"), audit_fst.kind_options())):
        rows += [HelpRow(section, (QKeySequence(key),), label) for _, label, key in options]
    audits = QCoreApplication.translate("MainWindow", "Both audits")
    rows += [HelpRow(audits, tuple(QKeySequence(k) for k in keys), QCoreApplication.translate("AuditView", text))
             for keys, _, text in AUDIT_KEYS]
    return rows


def key_text(seq: QKeySequence) -> str:
    return seq.toString(QKeySequence.SequenceFormat.NativeText)


def shortcuts_html(rows: list[HelpRow]) -> str:
    out = []
    for section, group in groupby(rows, key=lambda r: r.section):
        out.append(f"<tr><td colspan='2'><br/><i>{escape(section)}</i></td></tr>")
        out += [f"<tr><td><b>{escape(', '.join(key_text(s) for s in r.keys))}</b></td><td>{escape(r.text)}</td></tr>"
                for r in group]
    return "<table>" + "".join(out) + "</table>"
