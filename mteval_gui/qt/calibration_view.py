"""Calibration page of the Validation tab: the composite's weights and tiers fitted to speakers' ratings.

For the scored, rated runs of one corpus (its target language), :func:`mteval_gui.app.calibration.calibration_study`
runs in the background and the page shows the fitted weights with their 95 % bootstrap intervals
beside the seed weights, the tier thresholds (with the mean rating each tier stands for), Kendall
τ-b and Spearman ρ of the seed and calibrated weights (cross-validated), the evidence and its
warnings, and the runs whose tier would change. *Write to card…* keeps the result in the language
card as a named profile (after a confirmation); scoring uses it only when asked or when the card
makes it the default.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.calibration import PROFILE_NAME, TIER_RATINGS, calibration_study, write_profile
from mteval_gui.qt.dialogs import confirm, inform, reporting_errors
from mteval_gui.qt.labels import score_label, tier_label
from mteval_gui.qt.page import Page


def _num(v: float | None) -> str:
    return "—" if v is None else f"{v:.3f}"


def _interval(lo: float | None, hi: float | None) -> str:
    return "" if lo is None or hi is None else f"[{lo:.3f}, {hi:.3f}]"


def _table(name: str) -> QTableWidget:
    t = QTableWidget()
    t.setObjectName(name)
    t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def _fill(table: QTableWidget, headers: list[str], rows: list[list[str]]) -> None:
    table.clear()
    table.setColumnCount(len(headers))
    table.setHorizontalHeaderLabels(headers)
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            if c:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            table.setItem(r, c, item)
    table.resizeColumnsToContents()


class ProfileNameDialog(QDialog):
    """Asks for the profile's name and whether the card makes it its default."""

    def __init__(self, language: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Write to the language card"))
        lay = QFormLayout(self)
        self.name = QLineEdit("calibrated")
        self.name.setObjectName("profileName")
        self.default = QCheckBox(self.tr("Scoring uses this profile when none is named"))
        self.default.setObjectName("profileDefault")
        lay.addRow(QLabel(self.tr("The weights and tiers are kept in the card of {0} with their evidence.")
                          .format(language)))
        lay.addRow(self.tr("Profile name:"), self.name)
        lay.addRow(self.default)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addRow(buttons)


class CalibrationView(Page):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("calibrationView")
        self.outcome: Any = None
        self._languages: dict[str, str] = {}  # corpus -> target language
        self.calibrate_task = self.task("calibrate", self.tr("Calibrating the composite"))
        lay = self.body_layout()
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Corpus:")))
        self.corpus = QComboBox()
        self.corpus.setObjectName("calibrationCorpus")
        self.corpus.currentIndexChanged.connect(self._clear)
        bar.addWidget(self.corpus)
        self.language = QLabel()
        bar.addWidget(self.language)
        self.all_corpora = QCheckBox(self.tr("Every corpus in this language"))
        self.all_corpora.setObjectName("calibrationAllCorpora")
        self.all_corpora.toggled.connect(self._clear)
        bar.addWidget(self.all_corpora)
        self.calibrate_button = QPushButton(self.tr("Calibrate"))
        self.calibrate_button.setObjectName("calibrateButton")
        self.calibrate_button.clicked.connect(self.calibrate)
        bar.addWidget(self.calibrate_button)
        self.write_button = QPushButton(self.tr("Write to card…"))
        self.write_button.setObjectName("writeCardButton")
        self.write_button.clicked.connect(self.write_card)
        bar.addWidget(self.write_button)
        bar.addStretch(1)
        lay.addLayout(bar)

        top = QHBoxLayout()
        weights = QGroupBox(self.tr("Weights (95 % bootstrap interval over entries)"))
        wl = QVBoxLayout(weights)
        self.weights_table = _table("calibrationWeights")
        wl.addWidget(self.weights_table)
        top.addWidget(weights, 1)
        tiers = QGroupBox(self.tr("Tier thresholds"))
        tl = QVBoxLayout(tiers)
        self.tiers_table = _table("calibrationTiers")
        tl.addWidget(self.tiers_table)
        top.addWidget(tiers, 1)
        lay.addLayout(top, 1)

        mid = QHBoxLayout()
        corr = QGroupBox(self.tr("Agreement with the speakers"))
        cf = QFormLayout(corr)
        self.tau_seed = QLabel("—")
        self.tau_seed.setObjectName("tauSeed")
        self.tau_calibrated = QLabel("—")
        self.tau_calibrated.setObjectName("tauCalibrated")
        cf.addRow(self.tr("Seed weights:"), self.tau_seed)
        cf.addRow(self.tr("Calibrated (cross-validated):"), self.tau_calibrated)
        mid.addWidget(corr, 1)
        ev = QGroupBox(self.tr("Evidence"))
        el = QVBoxLayout(ev)
        self.evidence = QLabel("—")
        self.evidence.setObjectName("calibrationEvidence")
        self.evidence.setWordWrap(True)
        self.warnings = QLabel()
        self.warnings.setObjectName("calibrationWarnings")
        self.warnings.setWordWrap(True)
        self.warnings.setStyleSheet("color: #9a5b00;")
        el.addWidget(self.evidence)
        el.addWidget(self.warnings)
        mid.addWidget(ev, 1)
        lay.addLayout(mid)

        changes = QGroupBox(self.tr("Runs whose tier would change"))
        chl = QVBoxLayout(changes)
        self.changes_table = _table("calibrationChanges")
        chl.addWidget(self.changes_table)
        lay.addWidget(changes, 1)
        self.note = QLabel()
        self.note.setObjectName("calibrationNote")
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self._clear()

    # ----- the page contract -------------------------------------------------------------------
    def refresh(self) -> None:
        current = self.corpus.currentData()
        self.corpus.blockSignals(True)
        self.corpus.clear()
        self._languages = {}
        for c in (workspace.list_corpora(self.ws) if self.ws is not None else []):
            self.corpus.addItem(c["corpus_id"], c["corpus_id"])
            self._languages[c["corpus_id"]] = c["target_lang"]
        self.corpus.setCurrentIndex(max(self.corpus.findData(current), 0))
        self.corpus.blockSignals(False)
        self._clear()
        super().refresh()

    def corpora(self) -> list[str]:
        """The corpora to calibrate over: the chosen one, or every corpus of its target language."""
        cid = self.corpus.currentData()
        if cid is None:
            return []
        if not self.all_corpora.isChecked():
            return [cid]
        lang = self._languages.get(cid)
        return [c for c, code in self._languages.items() if code == lang]

    def _target(self) -> str | None:
        cid = self.corpus.currentData()
        return self._languages.get(cid) if cid is not None else None

    def _clear(self, *_: object) -> None:
        self.outcome = None
        for t in (self.weights_table, self.tiers_table, self.changes_table):
            t.clear()
            t.setRowCount(0)
            t.setColumnCount(0)
        self.tau_seed.setText("—")
        self.tau_calibrated.setText("—")
        self.evidence.setText("—")
        self.warnings.setText("")
        self.write_button.setEnabled(False)
        lang = self._target()
        self.language.setText(self.tr("language: {0}").format(lang) if lang else "")
        self.note.setText(self.tr("Fits non-negative weights summing to 1 and the tier thresholds to the speakers' "
                                  "ratings of the scored runs of the corpus. Refused below 30 rated items, 2 raters "
                                  "or agreement α 0.4."))

    # ----- calibrating -------------------------------------------------------------------------
    def calibrate(self) -> None:
        """Calibrate over the chosen corpus in the background."""
        corpora = self.corpora()
        lang = self._target()
        if self.ws is None or not corpora or lang is None:
            return
        ws = self.ws
        self._clear()
        self.note.setText(self.tr("Calibrating…"))
        self.calibrate_task.start(lambda ctx: calibration_study(ws, corpora, lang), on_done=self._show,
                                  on_error=self._failed, workspace=ws)

    def _failed(self, exc: BaseException) -> None:
        from mteval_gui.qt.dialogs import show_error

        self.note.setText(self.tr("Not calibrated: {0}").format(exc))
        show_error(self, exc)

    def _show(self, outcome: Any) -> None:
        self.outcome = outcome
        c = outcome.calibration
        _fill(self.weights_table, [self.tr("Input"), self.tr("Weight"), self.tr("95 % interval"), self.tr("Seed")],
              [[score_label(k), f"{c.weights[k]:.3f}", _interval(*(c.weights_ci.get(k) or (None, None))),
                f"{c.seed_weights[k]:.3f}"] for k in c.keys]
              + [[score_label(k), self.tr("not fitted"), "", ""] for k in c.left_out])
        _fill(self.tiers_table, [self.tr("Tier"), self.tr("From composite"), self.tr("95 % interval"),
                                 self.tr("Mean rating")],
              [[tier_label(t) + (" " + self.tr("(extrapolated)") if t in c.extrapolated else ""), f"{v:.3f}",
                _interval(*(c.thresholds_ci.get(t) or (None, None))), f"{TIER_RATINGS[t]:g}"]
               for t, v in c.thresholds.items()])
        for name, label in (("seed", self.tau_seed), ("calibrated", self.tau_calibrated)):
            k, s = c.kendall[name], c.spearman[name]
            label.setText(self.tr("τ-b {0} {1}   Spearman ρ {2} {3}").format(
                _num(k.value), _interval(k.ci_lower, k.ci_upper), _num(s.value), _interval(s.ci_lower, s.ci_upper)))
        ev = c.evidence
        lines = [self.tr("Corpora: {0}").format(", ".join(outcome.corpora)),
                 self.tr("{0} items ({1} entries, {2} runs), {3} ratings by {4} raters; α {5} {6}").format(
            ev["items"], ev["entries"], len(ev["runs"]), ev["ratings"], ev["raters"], _num(ev["alpha"]),
            _interval(*(ev["alpha_ci"] or (None, None))))]
        for rid, why in (ev.get("excluded_raters") or {}).items():
            lines.append(self.tr("Left out: {0} ({1})").format(rid, why))
        self.evidence.setText("\n".join(lines))
        texts = {"few_items": self.tr("{0} items rated by 3+ raters (target {1}): the intervals are wide."),
                 "few_raters": self.tr("Only {0} raters (fewer than {1})."),
                 "low_alpha": self.tr("Agreement α {0:.3f} is below {1}: conclusions are tentative.")}
        self.warnings.setText("\n".join(texts[code].format(*vals) for code, vals in c.warning_codes))
        changed = [r for r in outcome.runs if r.changed]
        _fill(self.changes_table, [self.tr("Run"), self.tr("Seed"), self.tr("Calibrated")],
              [[r.run_id, f"{tier_label(r.seed_tier)} ({_num(r.seed_composite)})",
                f"{tier_label(r.calibrated_tier)} ({_num(r.calibrated_composite)})"] for r in changed])
        self.note.setText(self.tr("{0} of {1} runs would change tier. Thresholds: the composite where the fitted "
                                  "line reaches the tier's mean rating.").format(len(changed), len(outcome.runs)))
        self.write_button.setEnabled(True)

    def write_card(self) -> None:
        """Ask for a name, confirm, then keep the calibration in the language card."""
        if self.outcome is None:
            return
        dlg = ProfileNameDialog(self.outcome.language, self)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return
        self.write_named(dlg.name.text().strip(), dlg.default.isChecked())

    def write_named(self, name: str, make_default: bool) -> bool:
        if self.outcome is None:
            return False
        if not PROFILE_NAME.match(name):
            self.note.setText(self.tr("Profile name {0!r}: letters, digits, '.', '_' and '-' only.").format(name))
            return False
        question = self.tr("Write the profile {0} into the language card of {1}?").format(name, self.outcome.language)
        if make_default:
            question += "\n" + self.tr("Runs scored from now on use it unless another profile is named.")
        if not confirm(self, self.tr("Write to card"), question):
            return False
        with reporting_errors(self) as report:
            path = write_profile(self.outcome, name, make_default=make_default)
        if report.failed:
            return False
        inform(self, self.tr("Written"), self.tr("The profile {0} is in {1}.").format(name, path))
        self.note.setText(self.tr("Written to {0} as {1}.").format(path, name))
        return True
