"""Validation dashboard (SPEC §9, §11): how well the metrics agree with the speakers.

For the scored runs of one corpus: progress towards the target study size (200 items,
3 raters each), inter-rater agreement (Krippendorff's α, ordinal, with bootstrap CI),
segment-level Kendall τ-b and Spearman ρ and system-level Pearson r of every metric with
the mean human rating (with CIs), a scatter plot of one metric against the ratings, and the
sign-off of a run's tier claim. Computation: :func:`mteval_gui.app.study.validation_study`.
Each metric's row also shows the width of its τ-b interval now and projected at the 200 × 3
target (:func:`mteval_gui.app.sampling.width_projections`), and the reviewer quality table
shows every reviewer's attention checks, repeated items and agreement with the others, with
the reason a reviewer is flagged and left out of sign-off evidence
(:func:`mteval_gui.app.reviewer_qc.reviewer_quality`).

Two more pages hold the speaker audits of the language tools: the linter audit (Task B,
:mod:`mteval_gui.qt.audit_linter`) and the FST audit (Task C, :mod:`mteval_gui.qt.audit_fst`);
a fourth calibrates the composite's weights and tiers to the ratings
(:mod:`mteval_gui.qt.calibration_view`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCharts import QChart, QChartView, QScatterSeries, QValueAxis
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from mteval_gui.app import workspace
from mteval_gui.app.signoff import SignoffCandidates, signoff, signoff_candidates, signoff_rules, signoff_status
from mteval_gui.app.workspace import Workspace
from mteval_gui.qt.audit_fst import FstAuditView
from mteval_gui.qt.audit_linter import LinterAuditView
from mteval_gui.qt.calibration_view import CalibrationView
from mteval_gui.qt.campaigns_panel import CampaignsPanel
from mteval_gui.qt.chart_axes import apply_value_axis
from mteval_gui.qt.dialogs import reporting_errors
from mteval_gui.qt.labels import metric_label, tier_label
from mteval_gui.qt.page import Page
from mteval_gui.qt.table_model import select_row


def _ci(r: Any) -> str:
    value = getattr(r, "value", getattr(r, "alpha", None))
    if value is None:
        return "—"
    text = f"{value:.3f}"
    if r.ci_lower is not None and r.ci_upper is not None:
        text += f"  [{r.ci_lower:.3f}, {r.ci_upper:.3f}]"
    return text


class ValidationView(Page):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("validationView")
        self.ws: Workspace | None = None
        self._reviewer_provider: Callable[[], str | None] = lambda: self.context.reviewer()
        self.study: Any = None
        self.study_task = self.task("study", self.tr("Computing the study"))
        outer = self.body_layout()
        outer.setContentsMargins(0, 0, 0, 0)
        self.pages = QTabWidget()
        self.pages.setObjectName("validationPages")
        self.pages.setDocumentMode(True)
        outer.addWidget(self.pages)
        dashboard = QWidget()
        self.dashboard = dashboard
        lay = QVBoxLayout(dashboard)
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("Corpus:")))
        self.corpus = QComboBox()
        self.corpus.setObjectName("validationCorpus")
        self.corpus.currentIndexChanged.connect(self._corpus_changed)
        bar.addWidget(self.corpus)
        bar.addWidget(QLabel(self.tr("Human score:")))
        self.aspect = QComboBox()
        for key, text in (("adequacy", self.tr("adequacy")), ("fluency", self.tr("fluency")),
                          ("mean", self.tr("mean of both"))):
            self.aspect.addItem(text, key)
        bar.addWidget(self.aspect)
        self.compute_button = QPushButton(self.tr("Compute"))
        self.compute_button.setObjectName("computeStudy")
        self.compute_button.clicked.connect(self.compute)
        bar.addWidget(self.compute_button)
        bar.addStretch(1)
        lay.addLayout(bar)

        top = QHBoxLayout()
        prog = QGroupBox(self.tr("Study size"))
        pf = QFormLayout(prog)
        self.items_bar = QProgressBar()
        self.items_bar.setObjectName("itemsProgress")
        self.raters_label = QLabel()
        pf.addRow(self.tr("Items rated by 3+ raters:"), self.items_bar)
        pf.addRow(self.tr("Raters:"), self.raters_label)
        top.addWidget(prog, 1)
        agree = QGroupBox(self.tr("Agreement (Krippendorff's α, ordinal)"))
        af = QFormLayout(agree)
        self.alpha_adequacy = QLabel("—")
        self.alpha_fluency = QLabel("—")
        af.addRow(self.tr("Adequacy:"), self.alpha_adequacy)
        af.addRow(self.tr("Fluency:"), self.alpha_fluency)
        self.alpha_dialects = QLabel("—")
        self.alpha_dialects.setObjectName("dialectAgreement")
        self.alpha_dialects.setTextFormat(Qt.TextFormat.PlainText)
        self.alpha_dialects.setWordWrap(True)
        af.addRow(self.tr("Dialects (adequacy):"), self.alpha_dialects)
        top.addWidget(agree, 1)
        sign = QGroupBox(self.tr("Tier sign-off"))
        sl = QGridLayout(sign)
        self.signoff_run = QComboBox()
        self.signoff_run.setObjectName("signoffRun")
        self.signoff_run.currentIndexChanged.connect(self._show_signoff)
        self.signoff_state = QLabel()
        self.signoff_state.setWordWrap(True)
        # the deployable/fluent runs whose tier cannot be confirmed yet, with what they lack
        self.signoff_waiting = QLabel()
        self.signoff_waiting.setObjectName("signoffWaiting")
        self.signoff_waiting.setWordWrap(True)
        self.confirm_button = QPushButton(self.tr("Confirm tier"))
        self.reject_button = QPushButton(self.tr("Reject tier"))
        self.confirm_button.clicked.connect(lambda: self.sign("confirm"))
        self.reject_button.clicked.connect(lambda: self.sign("reject"))
        sl.addWidget(self.signoff_run, 0, 0, 1, 2)
        sl.addWidget(self.signoff_state, 1, 0, 1, 2)
        sl.addWidget(self.confirm_button, 2, 0)
        sl.addWidget(self.reject_button, 2, 1)
        sl.addWidget(self.signoff_waiting, 3, 0, 1, 2)
        sign.setToolTip(self.rules_tooltip())
        top.addWidget(sign, 1)
        esa = QGroupBox(self.tr("ESA (speakers' 0-100 scores)"))
        esa.setToolTip(self.tr("The mean of the speakers' own ESA scores per run and, apart, the MQM-style penalty "
                               "of their error spans (minor 1, major 5, critical 10 unless the language card says "
                               "otherwise)"))
        el = QVBoxLayout(esa)
        self.esa_summary = QLabel("—")
        self.esa_summary.setObjectName("esaSummary")
        self.esa_summary.setWordWrap(True)
        el.addWidget(self.esa_summary)
        top.addWidget(esa, 1)
        lay.addLayout(top)

        mid = QHBoxLayout()
        self.table = QTableWidget()
        self.table.setObjectName("correlationTable")
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.itemSelectionChanged.connect(self._scatter_selected)
        mid.addWidget(self.table, 3)
        self.chart_view = QChartView()
        self.chart_view.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.chart_view.setMinimumWidth(360)
        mid.addWidget(self.chart_view, 2)
        lay.addLayout(mid, 1)
        quality = QGroupBox(self.tr("Reviewer quality control"))
        quality.setToolTip(self.quality_rules_text())
        ql = QVBoxLayout(quality)
        self.quality_table = QTableWidget()
        self.quality_table.setObjectName("reviewerQualityTable")
        self.quality_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.quality_table.verticalHeader().setVisible(False)
        self.quality_table.setMaximumHeight(160)
        ql.addWidget(self.quality_table)
        lay.addWidget(quality)
        self.quality: dict[str, Any] = {}
        self.widths: dict[str, Any] = {}
        self.note = QLabel()
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.pages.addTab(dashboard, self.tr("Metrics and speakers"))
        self.linter_audit = LinterAuditView()
        self.fst_audit = FstAuditView()
        for page in (self.linter_audit, self.fst_audit):
            page.reviewer_provider = lambda: self._reviewer_provider()
        self.pages.addTab(self.linter_audit, self.tr("Linter audit (task B)"))
        self.pages.addTab(self.fst_audit, self.tr("FST audit (task C)"))
        self.campaigns = CampaignsPanel()
        self.campaigns.review_share = lambda *share: self.context.review_share(*share)
        self.pages.addTab(self.campaigns, self.tr("Campaigns"))
        self.calibration = CalibrationView()
        self.pages.addTab(self.calibration, self.tr("Calibration"))
        self._clear()

    @property
    def reviewer_provider(self) -> Callable[[], str | None]:
        return self._reviewer_provider

    @reviewer_provider.setter
    def reviewer_provider(self, fn: Callable[[], str | None]) -> None:
        self._reviewer_provider = fn

    def set_workspace(self, ws: Workspace | None) -> None:
        self.linter_audit.set_workspace(ws)
        self.fst_audit.set_workspace(ws)
        self.campaigns.set_workspace(ws)
        self.calibration.set_workspace(ws)
        super().set_workspace(ws)

    def refresh(self) -> None:
        self._refresh_dashboard()
        self.campaigns.refresh()
        self.linter_audit.mark_stale()
        self.fst_audit.mark_stale()
        self.calibration.mark_stale()

    def shutdown(self) -> None:
        super().shutdown()
        self.linter_audit.shutdown()
        self.fst_audit.shutdown()
        self.calibration.shutdown()

    def _refresh_dashboard(self) -> None:
        current = self.corpus.currentData()
        self.corpus.blockSignals(True)
        self.corpus.clear()
        for c in (workspace.list_corpora(self.ws) if self.ws is not None else []):
            self.corpus.addItem(c["corpus_id"], c["corpus_id"])
        self.corpus.setCurrentIndex(max(self.corpus.findData(current), 0))  # the corpus chosen stays chosen
        self.corpus.blockSignals(False)
        self._corpus_changed()

    def _corpus_changed(self, *_: object) -> None:
        self._fill_signoff_runs()
        self._clear()

    def _clear(self) -> None:
        self.study = None
        self.table.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(0)
        self.quality_table.clear()
        self.quality_table.setRowCount(0)
        self.quality_table.setColumnCount(0)
        self.items_bar.setRange(0, 200)
        self.items_bar.setValue(0)
        self.items_bar.setFormat(self.tr("%v of %m"))
        self.raters_label.setText("—")
        self.alpha_adequacy.setText("—")
        self.alpha_fluency.setText("—")
        self.alpha_dialects.setText("—")
        self.chart_view.setChart(QChart())
        self.note.setText(self.tr("Rate entries in the Entries tab, then compute the study for a corpus."))

    def _scored_runs(self) -> list[str]:
        if self.ws is None or self.corpus.currentData() is None:
            return []
        return [r["run_id"] for r in workspace.list_runs(self.ws, self.corpus.currentData()) if r["has_run_card"]]

    def compute(self) -> None:
        """Compute the study of the chosen corpus in the background."""
        runs = self._scored_runs()
        if self.ws is None or not runs:
            self._clear()
            self.note.setText(self.tr("No scored run in this corpus."))
            return
        from mteval_gui.app.reviewer_qc import reviewer_quality
        from mteval_gui.app.sampling import width_projections
        from mteval_gui.app.study import validation_study

        ws, aspect = self.ws, self.aspect.currentData()
        self.note.setText(self.tr("Computing…"))

        def work(ctx: Any) -> tuple[Any, Any, Any]:
            study = validation_study(ws, runs, aspect=aspect)
            return study, reviewer_quality(ws), width_projections(study)

        self.study_task.start(work, on_done=self._computed, workspace=ws)

    def _computed(self, result: tuple[Any, Any, Any]) -> None:
        study, self.quality, widths = result
        self.widths = {w.metric_id: w for w in widths}
        self.study = study
        self._show(study)
        self._show_quality()
        self._fill_signoff_runs()
        self.show_esa(self._scored_runs())

    def show_esa(self, runs: list[str]) -> None:
        """Each run's ESA (the speakers' direct scores) and, apart, the MQM-style penalty of their spans."""
        if self.ws is None or not runs:
            self.esa_summary.setText("—")
            return
        from mteval_gui.app.review import esa_scores

        lines = []
        for run_id, e in esa_scores(self.ws, runs).items():
            score = self.tr("ESA {0} over {1} entries").format(f"{e.score:g}", len(e.entries)) \
                if e.score is not None else self.tr("no ESA score yet")
            penalty = self.tr(" · MQM penalty {0}").format(f"{e.penalty:g}") if e.penalty is not None else ""
            lines.append(f"{run_id}: {score}{penalty}")
        self.esa_summary.setText("\n".join(lines))

    # ----- reviewer quality -----------------------------------------------------------------
    def quality_rules_text(self) -> str:
        """The rules that flag a reviewer (:data:`mteval_gui.validation.quality.RULES`), translated."""
        from mteval_gui.app import reviewer_qc as q

        return self.tr(
            "A reviewer is flagged, and their ratings left out of sign-off evidence and calibration, when they: "
            "fail more than {0} attention check and more than {1}% of the decisive ones (a check fails when the "
            "known-bad item is rated at least as high as the real one; it decides only when the real item is rated "
            "2 or more); or rate {2} or more repeated items more than {3} scale point apart on average; or, on {4} "
            "or more items shared with other reviewers, reach a Kendall τ-b below {5} with their mean adequacy."
        ).format(q.MAX_FAILED_CHECKS, round(q.MAX_FAILED_SHARE * 100), q.MIN_REPEATS, q.MAX_REPEAT_DIFFERENCE,
                 q.MIN_SHARED_ITEMS, q.MIN_AGREEMENT)

    def quality_reasons(self, r: Any) -> list[str]:
        """Why a reviewer is flagged, in the interface's language (the rules of :meth:`quality_rules_text`)."""
        from mteval_gui.app import reviewer_qc as q

        out = []
        if r.failed > q.MAX_FAILED_CHECKS and r.decisive and r.failed / r.decisive > q.MAX_FAILED_SHARE:
            out.append(self.tr("inattentive: rated the known-bad item at least as high as the real one in {0} of "
                               "{1} attention checks").format(r.failed, r.decisive))
        if r.repeats >= q.MIN_REPEATS and r.repeat_difference is not None \
                and r.repeat_difference > q.MAX_REPEAT_DIFFERENCE:
            out.append(self.tr("inconsistent: {0} repeated items rated {1} scale points apart on average").format(
                r.repeats, f"{r.repeat_difference:.2f}"))
        if r.shared_items >= q.MIN_SHARED_ITEMS and r.agreement is not None and r.agreement < q.MIN_AGREEMENT:
            out.append(self.tr("disagrees with the others: Kendall τ-b {0} on {1} shared items").format(
                f"{r.agreement:.3f}", r.shared_items))
        return out

    def _show_quality(self) -> None:
        headers = [self.tr("Reviewer"), self.tr("Attention checks failed"), self.tr("Repeats (mean difference)"),
                   self.tr("τ-b with the others (items)"), self.tr("Status")]
        t = self.quality_table
        t.setColumnCount(len(headers))
        t.setHorizontalHeaderLabels(headers)
        t.setRowCount(len(self.quality))
        for row, r in enumerate(self.quality.values()):
            reasons = self.quality_reasons(r)
            cells = [r.reviewer, self.tr("{0} of {1} ({2} answered)").format(r.failed, r.decisive, r.checks),
                     "—" if r.repeat_difference is None else f"{r.repeats} ({r.repeat_difference:.2f})",
                     "—" if r.agreement is None else f"{r.agreement:.3f} ({r.shared_items})",
                     self.tr("flagged, left out: {0}").format("; ".join(reasons)) if reasons else self.tr("kept")]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if reasons:
                    item.setForeground(QColor("#b03030"))
                t.setItem(row, col, item)
        t.resizeColumnsToContents()

    def _show(self, s: Any) -> None:
        p = s.progress
        self.items_bar.setRange(0, p.target_items)
        self.items_bar.setValue(min(p.items_at_target, p.target_items))
        self.items_bar.setFormat(self.tr("%v of %m ({0} items rated)").format(p.items_rated))
        self.raters_label.setText(self.tr("{0} (target {1} per item)").format(p.raters, p.target_raters))
        self.alpha_adequacy.setText(_ci(s.agreement["adequacy"]))
        self.alpha_fluency.setText(_ci(s.agreement["fluency"]))
        self.alpha_dialects.setText(self.dialect_text(s))
        headers = [self.tr("Metric"), self.tr("Kendall τ-b [95 % CI]"), self.tr("Spearman ρ [95 % CI]"),
                   self.tr("System Pearson r [95 % CI]"), self.tr("Items"),
                   self.tr("τ-b interval width: now → at {0} × {1}").format(p.target_items, p.target_raters)]
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(s.metrics))
        for row, m in enumerate(s.metrics):
            item = QTableWidgetItem(metric_label(m.metric_id))
            item.setData(Qt.ItemDataRole.UserRole, row)
            self.table.setItem(row, 0, item)
            for col, r in enumerate((m.kendall, m.spearman, m.system_pearson), start=1):
                self.table.setItem(row, col, QTableWidgetItem(_ci(r)))
            self.table.setItem(row, 4, QTableWidgetItem(str(m.kendall.n)))
            w = self.widths.get(m.metric_id)
            text = "—" if w is None or w.width_now is None or w.width_at_target is None else \
                f"{w.width_now:.3f} → {w.width_at_target:.3f}"
            cell = QTableWidgetItem(text)
            if w is not None:
                cell.setToolTip(self.tr("Fisher z interval of τ-b {0} over {1} items ({2} raters each); at the "
                                        "target τ-b {3} (corrected for 3 raters per item with Krippendorff's α)")
                                .format(f"{w.tau:.3f}", w.items, f"{w.raters:.1f}", f"{w.tau_at_target:.3f}"))
            self.table.setItem(row, 5, cell)
        self.table.resizeColumnsToContents()
        note = self.tr("Correlations use the mean rating per item; intervals are percentile bootstrap "
                       "({0} resamples, seed {1}).").format(s.n_bootstrap, s.seed)
        for mid, why in s.excluded.items():
            note += "\n" + self.tr("{0} left out: {1}").format(metric_label(mid), why)
        self.note.setText(note)
        if s.metrics:
            select_row(self.table, 0)

    def dialect_text(self, s: Any) -> str:
        """Adequacy agreement within each dialect and across dialects, one line each (— without dialects)."""
        d = s.dialects.get("adequacy") if s.dialects else None
        if d is None:
            return self.tr("— (no reviewer's dialect is recorded)")
        lines = [self.tr("within {0}: {1} ({2} reviewers)").format(name, _ci(a), d.raters[name])
                 for name, a in d.within.items()]
        lines.append(self.tr("across dialects: {0} ({1} pairs of ratings)").format(_ci(d.across), d.across.units))
        if d.without_dialect:
            lines.append(self.tr("{0} reviewer(s) without a dialect left out").format(d.without_dialect))
        return "\n".join(lines)

    def _scatter_selected(self) -> None:
        rows = {i.row() for i in self.table.selectedItems()}
        if self.study is None or not rows:
            return
        m = self.study.metrics[min(rows)]
        chart = QChart()
        series = QScatterSeries()
        series.setMarkerSize(7)
        series.setColor(QColor("#4e79a7"))
        xs, ys = [], []
        for _, _, x, y in m.points:
            series.append(float(x), float(y))
            xs.append(x)
            ys.append(y)
        chart.addSeries(series)
        chart.setTitle(self.tr("{0} against human {1}").format(metric_label(m.metric_id), self.aspect.currentText()))
        ax, ay = QValueAxis(), QValueAxis()
        chart.addAxis(ax, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(ay, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(ax)
        series.attachAxis(ay)
        # after attaching (which sets the ranges to the data's): round ticks covering the values
        apply_value_axis(ax, min(xs, default=0.0), max(xs, default=1.0), metric_label(m.metric_id))
        ay.setRange(0.5, 5.5)
        ay.setTickType(QValueAxis.TickType.TicksDynamic)
        ay.setTickAnchor(1.0)
        ay.setTickInterval(1.0)
        ay.setLabelFormat("%.0f")
        ay.setTitleText(self.tr("human rating"))
        chart.legend().setVisible(False)
        self.chart_view.setChart(chart)

    # ----- sign-off ------------------------------------------------------------------------
    def rules_tooltip(self) -> str:
        """What confirming each tier needs (:data:`mteval_gui.domain.signoff.SIGNOFF_RULES`), as a table."""
        head = (self.tr("Tier"), self.tr("Median adequacy"), self.tr("Median fluency"), self.tr("Rated entries"),
                self.tr("Speakers per entry"), self.tr("α"))
        rows = "".join(
            "<tr>" + "".join(f"<td>{cell}</td>" for cell in (
                tier_label(r.tier), f"≥ {r.min_adequacy:g}", f"≥ {r.min_fluency:g}",
                self.tr("min({0}, entries)").format(r.min_entries), f"≥ {r.min_speakers}", f"≥ {r.min_alpha}"))
            + "</tr>" for r in signoff_rules())
        return (self.tr("Confirming a tier needs task A ratings by speakers: reviewers whose record lists the "
                        "run's target language (other reviewers' ratings do not count). The reviewer who confirms "
                        "must be one of them. Krippendorff's α (ordinal) applies to adequacy and to fluency; when "
                        "it is not computable the tier is not confirmed.")
                + "<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>" + rows + "</table>")

    def _fill_signoff_runs(self) -> None:
        """List the runs of the corpus whose tier the speakers' ratings support now; say what the
        ratings of the others show."""
        corpus = self.corpus.currentData()
        cands = signoff_candidates(self.ws, corpus) if self.ws is not None and corpus is not None \
            else SignoffCandidates()
        current = self.signoff_run.currentData()
        self.signoff_run.blockSignals(True)
        self.signoff_run.clear()
        for ev in cands.ready:
            self.signoff_run.addItem(ev.run_id, ev.run_id)
        idx = self.signoff_run.findData(current)
        self.signoff_run.setCurrentIndex(max(idx, 0) if cands.ready else -1)
        self.signoff_run.blockSignals(False)
        for button in (self.signoff_run, self.confirm_button, self.reject_button):
            button.setEnabled(bool(cands.ready))
        lines = []
        if cands.waiting:
            lines.append(self.tr("Not confirmable yet (what each tier needs is in the tooltip):"))
            none = self.tr("none")
            lines += [self.tr("{0} ({1}): {2} of {3} entries rated by {4}+ speakers of {5}, {6} speaker(s); "
                              "median adequacy {7}, fluency {8}").format(
                ev.run_id, tier_label(ev.tier), ev.rated_entries, ev.required_entries, ev.min_speakers,
                ev.language or "?", ev.reviewers,
                none if ev.median_adequacy is None else f"{ev.median_adequacy:.1f}",
                none if ev.median_fluency is None else f"{ev.median_fluency:.1f}")
                + self._left_out(ev) for ev in cands.waiting]
        elif not cands.ready and corpus is not None:
            lines.append(self.tr("No scored run of this corpus has a tier to confirm."))
        self.signoff_waiting.setText("\n".join(lines))
        self._show_signoff()

    def _show_signoff(self, *_: object) -> None:
        rid = self.signoff_run.currentData()
        if self.ws is None or rid is None:
            self.signoff_state.setText("")
            return
        st = signoff_status(self.ws, rid)
        states = {None: self.tr("no decision yet"), True: self.tr("confirmed"), False: self.tr("not confirmed")}
        state = states[st["confirmed"]]
        self.signoff_state.setText(self.tr("Tier {0}: {1} ({2} decision(s))").format(
            tier_label(st["tier"]), state, len(st["decisions"])) + self._left_out(st["evidence"]))

    def _left_out(self, ev: Any) -> str:
        """The reviewers quality control leaves out of a run's evidence, with the reason ("" if none)."""
        if not ev.excluded:
            return ""
        if self.ws is not None and any(rid not in self.quality for rid, _ in ev.excluded):
            from mteval_gui.app.reviewer_qc import reviewer_quality

            self.quality = reviewer_quality(self.ws)  # before the study is computed: the reasons in this language
        reasons = []
        for rid, why in ev.excluded:
            r = self.quality.get(rid)
            shown = "; ".join(self.quality_reasons(r)) if r is not None and self.quality_reasons(r) else why
            reasons.append(f"{rid} ({shown})")
        return " — " + self.tr("left out by reviewer quality control: {0}").format(", ".join(reasons))

    def sign(self, decision: str) -> None:
        rid = self.signoff_run.currentData()
        reviewer = self.reviewer_provider()
        if self.ws is None or rid is None:
            return
        if not reviewer:
            self.signoff_state.setText(self.tr("Choose a reviewer in the ratings panel first."))
            return
        with reporting_errors(self) as report:
            signoff(self.ws, rid, reviewer, decision)
        if report.failed:
            return
        self._show_signoff()
        self.context.run_changed(rid)  # its tier in the runs table
