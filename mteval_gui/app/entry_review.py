"""What the review pane shows for one entry, read from the workspace (no Qt).

Everything comes from the store: the corpus entry, each run's output, and the stored
per-entry metric results (``entry_metrics``), including the FST analyses of every output
word kept by the run's ``fst_analysis`` metric — the pane never re-analyses. Metrics are
found by role (:func:`mteval_gui.app.metrics.run_metrics`), never by id. :func:`review_html`
renders the texts, the character diff, the verdicts and the headline values with their
validation level as HTML; :func:`fst_words` lists each output word with its analyses and
whether it is a non-standard spelling.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from mteval_gui.app.diff import diff_html
from mteval_gui.app.documents import DocumentContext, document_context
from mteval_gui.app.messages import localized_detail
from mteval_gui.app.metrics import RunMetrics, describe, run_metrics
from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.corpus import Entry
from mteval_gui.domain.details import FlaggedWord, Verdict, Violation, WordAnalysis
from mteval_gui.domain.metrics import MetricRole
from mteval_gui.domain.run import Output
from mteval_gui.domain.transliteration import Scripts
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.versions import variant_dialects

VERDICT_EXTRAS = ("classes", "matched", "pairs", "pairing", "coverage", "explanation", "matched_msg",
                  "explanation_msg")
_D = TypeVar("_D", bound=BaseModel)
# the values shown under each output, by role (the run's metric of that role, a language's own first)
HEADLINE_ROLES: tuple[MetricRole, ...] = ("chrf", "exact", "fst_analysis", "equivalence_verdict", "terminology",
                                          "hallucination", "code_switching", "comet")


@dataclass
class OutputView:
    run_id: str
    label: str
    output: Output
    details: dict[str, dict[str, Any]] = field(default_factory=dict)  # metric id -> EntryScore JSON
    catalog: RunMetrics | None = None  # the run's metric declarations (from the registry when None)
    # speakers' current error spans and corrections: [{"reviewer_id", "spans", "correction"}]
    speaker_marks: list[dict[str, Any]] = field(default_factory=list)

    @property
    def metrics(self) -> RunMetrics:
        """The run's metrics; every metric with stored details is in it."""
        if self.catalog is None:
            self.catalog = RunMetrics(self.run_id, {mid: describe(mid) for mid in self.details})
        for mid in self.details:
            if mid not in self.catalog.descriptors:
                self.catalog.descriptors[mid] = describe(mid)
        return self.catalog

    def metric_of(self, role: MetricRole) -> str | None:
        """The metric of ``role`` with stored details for this entry (a language's own first)."""
        return next((m for m in self.metrics.by_role(role) if m in self.details), None)

    def value(self, metric_id: str) -> float | None:
        d = self.details.get(metric_id)
        v = d.get("value") if d else None
        return float(v) if isinstance(v, (int, float)) else None

    def verdicts(self) -> list[tuple[str, Verdict]]:
        """(metric id, verdict) for every metric that stored a verdict for this entry."""
        out: list[tuple[str, Verdict]] = []
        for mid, d in self.details.items():
            detail = d.get("detail") or {}
            if not isinstance(detail, dict) or detail.get("verdict") is None:
                continue
            v = detail["verdict"]
            # a plain verdict name: its explanation sits next to it in the detail
            data = dict(v) if isinstance(v, dict) else {"verdict": v, **{k: detail[k] for k in VERDICT_EXTRAS
                                                                          if k in detail}}
            out.append((mid, _verdict(data)))
        catalog = self.metrics
        # a language's own metric (its linter, its semantic validator) refines the built-in verdict
        # of the same role: show the language's only
        refined = {catalog.descriptor(mid).role for mid, _ in out if not catalog.descriptor(mid).builtin}
        return [(mid, v) for mid, v in out
                if not (catalog.descriptor(mid).builtin and catalog.descriptor(mid).role in refined)]


@dataclass
class ReviewData:
    entry: Entry
    outputs: list[OutputView]
    # variant -> the dialects of the speakers it was accepted from (speaker variants only)
    variant_dialects: dict[str, list[str]] = field(default_factory=dict)
    target_lang: str | None = None
    # the reference and the accepted variants written in each script of the target language, when its
    # card declares transliterations (script -> texts, the reference first); empty otherwise
    written_in: dict[str, list[str]] = field(default_factory=dict)
    # the same-document neighbours of the entry (None: it belongs to no document)
    document: DocumentContext | None = None

    def reference_in(self, script: str | None) -> str | None:
        """The reference written in ``script`` (None: as written, or no table leads there)."""
        texts = self.written_in.get(script or "")
        return texts[0] if texts and self.entry.reference else None

    def variants_in(self, script: str | None) -> list[str]:
        texts = self.written_in.get(script or "")
        return texts[1:] if texts and self.entry.reference else list(texts or [])


def written_in_scripts(card: LanguageCard | None, entry: Entry) -> dict[str, list[str]]:
    """The reference (first) and variants of ``entry`` written in each script the card's
    transliterations reach (empty without a table)."""
    scripts = Scripts.of(card)
    if not scripts:
        return {}
    texts = ([entry.reference] if entry.reference else []) + list(entry.variants)
    out: dict[str, list[str]] = {}
    for script in (scripts.primary, *scripts.others):
        converted = [scripts.to_script(t, script) for t in texts]
        out[script] = [c if c is not None else t for c, t in zip(converted, texts, strict=True)]
    return out


@dataclass(frozen=True)
class FstWord:
    token: str
    accepted: bool
    analyses: tuple[str, ...]
    non_standard: str | None = None  # the message when only the descriptive analyzer accepts it
    violations: tuple[str, ...] = ()
    folded: str | None = None  # the respelling (card's orthographic folds) the analyzer accepted
    descriptive: tuple[str, ...] = ()  # a non-standard spelling: the descriptive analyzer's analyses of it


def entry_details(ws: Workspace, run_id: str, entry_id: str) -> dict[str, dict[str, Any]]:
    """Every metric's stored result for one entry of a run: ``{metric_id: {"value", "values", "detail"}}``."""
    from mteval_gui.store.results import entry_details as stored

    return stored(ws, run_id, entry_id)


def load_review_data(ws: Workspace, corpus_id: str, entry_id: str, runs: list[tuple[str, str]]) -> ReviewData:
    """The entry and, for each ``(run_id, label)``, its output and stored metric results."""
    from mteval_gui.cards import try_load_card

    entry = repo.get_entry(ws, corpus_id, entry_id)
    target = repo.get_corpus_info(ws, corpus_id).get("target_lang")
    views = []
    for run_id, label in runs:
        output = repo.get_output(ws, run_id, entry_id)
        details = entry_details(ws, run_id, entry_id) or {}
        views.append(OutputView(run_id, label, output, details, run_metrics(ws, run_id, details),
                                speaker_marks=speaker_marks(ws, run_id, entry_id)))
    card = try_load_card(target) if isinstance(target, str) else None
    # the neighbours' outputs of the run reviewed (of the first run when several are compared)
    context = document_context(ws, corpus_id, entry_id, runs[0][0] if runs else None)
    return ReviewData(entry, views, variant_dialects(ws, corpus_id).get(entry_id, {}),
                      target if isinstance(target, str) else None, written_in_scripts(card, entry), context)


def speaker_marks(ws: Workspace, run_id: str, entry_id: str) -> list[dict[str, Any]]:
    """Each reviewer's current error spans and correction on one output (tasks A and B)."""
    from mteval_gui.domain.judgments import judgment_correction, judgment_spans
    from mteval_gui.store.judgments import current_judgments

    out = []
    for j in current_judgments(ws, run_id=run_id, entry_id=entry_id):
        spans, correction = judgment_spans(j), judgment_correction(j)
        if spans or correction:
            out.append({"reviewer_id": j.reviewer_id, "task": j.task, "spans": spans or [], "correction": correction})
    return out


SEVERITY_COLOURS = {"minor": "#fff1a8", "major": "#f6b8b8", "critical": "#e58a8a"}


def spans_html(text: str, spans: list[dict[str, Any]]) -> str:
    """``text`` with its error spans highlighted (critical over major over minor where they overlap; spans
    marking missing content have no place in the text)."""
    marks = [0] * len(text)
    rank = {"minor": 1, "major": 2, "critical": 3}
    names = {v: k for k, v in rank.items()}
    for sp in spans:
        start, end = sp.get("start"), sp.get("end")
        if isinstance(start, int) and isinstance(end, int):
            for i in range(max(0, start), min(len(text), end)):
                marks[i] = max(marks[i], rank.get(str(sp.get("severity")), 2))
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and marks[j] == marks[i]:
            j += 1
        chunk = _e(text[i:j])
        if marks[i]:
            severity = names[marks[i]]
            out.append(f'<span style="background-color:{SEVERITY_COLOURS[severity]};">{chunk}</span>')
        else:
            out.append(chunk)
        i = j
    return "".join(out)


def _verdict(data: dict[str, Any]) -> Verdict:
    try:
        return Verdict.model_validate(data)
    except ValidationError:  # a plugin's odd detail: its verdict name is still shown
        return Verdict(verdict=str(data.get("verdict", data.get("label", data.get("name", "")))))


def _valid(model: type[_D], items: Any) -> list[_D]:
    """The items that are valid ``model`` objects (the others are skipped)."""
    out: list[_D] = []
    for x in items if isinstance(items, list) else []:
        try:
            out.append(model.model_validate(x))
        except ValidationError:
            continue
    return out


def fst_words(view: OutputView) -> list[FstWord] | None:
    """The output words with their analyses; None when the run has no FST results."""
    fst_metric = view.metric_of("fst_analysis")
    fst = view.details.get(fst_metric) if fst_metric is not None else None
    if not fst:
        return None
    detail = fst.get("detail") or {}
    words = detail.get("analyses") if isinstance(detail, dict) else None
    if words is None and isinstance(detail, dict):
        words = detail.get("words")
    if not isinstance(words, list):
        return None
    flagged: dict[str, list[Violation]] = {}
    ortho_metric = view.metric_of("orthography")
    ortho = (view.details.get(ortho_metric) or {}).get("detail") if ortho_metric is not None else None
    for f in _valid(FlaggedWord, ortho.get("flagged") if isinstance(ortho, dict) else None):
        flagged[f.token] = f.violations
    out = []
    for w in _valid(WordAnalysis, words):
        violations = flagged.get(w.token, [])
        non_std = next((v for v in violations if v.code == "non_standard"), None)
        others = tuple(v.message or v.code for v in violations if v.code != "non_standard")
        accepted = w.is_accepted
        out.append(FstWord(w.token, accepted, tuple(w.analyses), non_std.message if non_std else None, others,
                           w.folded if accepted else None, tuple(non_std.analyses) if non_std else ()))
    return out


# ----- HTML ---------------------------------------------------------------------------------

def _e(s: Any) -> str:
    return html.escape("" if s is None else str(s))


def _field(key: str, names: dict[str, str] | None) -> str:
    return (names or {}).get(key) or key.replace("_", " ")


def _render_value(v: Any, names: dict[str, str] | None = None) -> str:
    if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        keys: list[str] = []
        for x in v:
            keys += [k for k in x if k not in keys]
        head = "".join(f"<th>{_e(_field(k, names))}</th>" for k in keys)
        rows = "".join("<tr>" + "".join(f"<td>{_render_value(x.get(k), names)}</td>" for k in keys) + "</tr>"
                       for x in v)
        return f'<table class="pairs" cellspacing="0" cellpadding="3" border="1"><tr>{head}</tr>{rows}</table>'
    if isinstance(v, list):
        return ", ".join(_e(x) if not isinstance(x, (dict, list)) else _e(json.dumps(x, ensure_ascii=False)) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{_e(k)}: {_render_value(x, names)}" for k, x in v.items())
    if isinstance(v, float):
        return f"{v:.3g}"
    return _e(v)


# verdicts that say the output matched what ``matched`` names (any other verdict only compared with it)
MATCH_VERDICTS = frozenset({"EXACT", "EQUIVALENT", "VALID"})


def verdict_html(metric_label: str, verdict: Verdict, colours: dict[str, str], *, locale: str | None = None,
                 field_names: dict[str, str] | None = None, colon: str = ": ") -> str:
    """A verdict with its classes, then every other field it carries (explanation, pairs…).

    Fields a plugin wrote with a message are shown in ``locale`` (:mod:`mteval_gui.app.messages`);
    ``field_names``: field -> the label shown for it (default: the field's name)."""
    name = verdict.verdict
    colour = colours.get(name, "#eeeeee")
    parts = [f'<p><b>{_e(metric_label)}</b> '
             f'<span style="background-color:{colour};padding:2px;">&nbsp;{_e(name)}&nbsp;</span>']
    shown = localized_detail(verdict.model_dump(), locale)
    classes = verdict.classes or shown.get("variant_classes")
    if classes:
        parts.append(" — " + ", ".join(f"<code>{_e(c)}</code>" for c in classes))
    parts.append("</p>")
    for key, value in shown.items():
        if key in ("verdict", "label", "name", "classes", "variant_classes") or value in (None, [], {}, ""):
            continue
        if key == "matched" and verdict.verdict not in MATCH_VERDICTS:
            key = "closest"  # a miss matched nothing: what it names is what the output was compared with
        parts.append(f"<p><i>{_e(_field(key, field_names))}</i>{colon}{_render_value(value, field_names)}</p>")
    return "".join(parts)


def review_html(data: ReviewData, *, blind: bool, labels: dict[str, str], metric_names: dict[str, str],
                verdict_colours: dict[str, str], validation_names: dict[str, str] | None = None,
                locale: str | None = None, field_names: dict[str, str] | None = None,
                reference_script: str | None = None) -> str:
    """The review pane's text: source, reference(s), outputs with diff, verdicts, metric values.

    ``reference_script``: show the reference and variants written in that script (the reviewer's),
    when the card's transliterations reach it; the diff of an output is always against the
    reference written in the output's own script.

    ``blind`` hides the reference, the diff, the verdicts and every metric value.
    ``labels`` holds the translated section titles (keys: source, reference, variants,
    output, error, no_output, metrics, difficulty, terminology, phenomena).
    ``metric_names``: metric id -> label; ``validation_names``: validation level -> the word
    shown beside each value (default: the level). ``locale`` and ``field_names``: the language of
    the verdicts' explanations and the labels of their fields (:func:`verdict_html`).
    """
    levels = validation_names or {}
    colon = labels.get("colon", ": ")  # "\u00a0: " in French
    e = data.entry
    out = [f'<h3>{_e(labels["source"])}</h3><p class="text">{_e(e.source)}</p>']
    if not blind:
        shown_ref = data.reference_in(reference_script) or e.reference
        shown_variants = data.variants_in(reference_script) if data.written_in.get(reference_script or "") \
            else e.variants
        out.append(f'<h3>{_e(labels["reference"])}</h3><p class="text">{_e(shown_ref) if shown_ref else "—"}</p>')
        if shown_ref and shown_ref != e.reference:
            out.append(f'<p class="meta">{_e(e.reference)}</p>')
        if shown_variants:
            # a variant written in another script keeps the dialects of the variant as stored
            as_stored = dict(zip(shown_variants, e.variants, strict=False))
            out.append(f'<p><i>{_e(labels["variants"])}</i>{colon}' + " · ".join(
                _e(v) + (f' <span class="dialect">({_e(", ".join(data.variant_dialects[as_stored[v]]))})</span>'
                         if data.variant_dialects.get(as_stored.get(v, v)) else "") for v in shown_variants) + "</p>")
    meta = []
    if e.difficulty is not None:
        meta.append(f'{_e(labels["difficulty"])}{colon}{e.difficulty}')
    if e.phenomena:
        meta.append(f'{_e(labels["phenomena"])}{colon}' + ", ".join(_e(p) for p in e.phenomena))
    if e.terminology:
        meta.append(f'{_e(labels["terminology"])}{colon}' + "; ".join(f"{_e(k)} → {', '.join(_e(x) for x in v)}"
                                                           for k, v in e.terminology.items()))
    if meta:
        out.append('<p class="meta">' + " · ".join(meta) + "</p>")
    for view in data.outputs:
        title = labels["output"] if len(data.outputs) == 1 else f'{labels["output"]} — {view.label}'
        out.append(f"<h3>{_e(title)}</h3>")
        o = view.output
        if o.error:
            out.append(f'<p class="error">{_e(labels["error"])}{colon}{_e(o.error)}</p>')
        elif not o.predicted.strip():
            out.append(f'<p class="error">{_e(labels["no_output"])}</p>')
        elif blind or not e.reference:
            out.append(f'<p class="text">{_e(o.predicted)}</p>')
        else:
            out.append(f'<p class="text">{diff_html(_reference_like(data, o.predicted), o.predicted)}</p>')
        if blind:
            continue
        for mark in view.speaker_marks:
            who = _e(mark["reviewer_id"])
            if mark["spans"]:
                cats = ", ".join(_e(_span_term(labels, sp)) for sp in mark["spans"])
                out.append(f'<p><i>{_e(labels.get("spans", "Error spans"))} ({who})</i>{colon}'
                           f'{spans_html(o.predicted, mark["spans"])} <span class="meta">[{cats}]</span></p>')
            if mark["correction"]:
                out.append(f'<p><i>{_e(labels.get("correction", "Correction"))} ({who})</i>{colon}'
                           f'<span class="text">{_e(mark["correction"])}</span></p>')
        for mid, verdict in view.verdicts():
            out.append(verdict_html(metric_names.get(mid, mid), verdict, verdict_colours, locale=locale,
                                    field_names=field_names, colon=colon))
        chips = []
        for role in HEADLINE_ROLES:
            headline = next((m for m in view.metrics.by_role(role) if view.value(m) is not None), None)
            if headline is None:
                continue
            desc = view.metrics.descriptor(headline)
            level = levels.get(desc.validation, desc.validation)
            chips.append(f"{_e(metric_names.get(headline, desc.label))} "
                         f"<b>{_e(desc.format_value(view.value(headline)))}</b>"
                         f' <span class="validation">({_e(level)})</span>')
        if chips:
            out.append(f'<p class="metrics">{" · ".join(chips)}</p>')
    return "".join(out)


def document_html(context: DocumentContext, *, blind: bool, labels: dict[str, str],
                  current: str | None = None) -> str:
    """The neighbours of an entry in its document: each one's source, its reference unless ``blind`` and the
    reviewed run's output of it, in document order with the entry itself (``current``: its source) between.

    ``labels``: ``reference``, ``output``, ``this_entry`` (the marker of the entry reviewed) and ``colon``."""
    colon = labels.get("colon", ": ")
    out = []

    def one(n: Any) -> None:
        out.append(f'<p class="ctx"><span class="offset">{n.offset:+d}</span> {_e(n.source)}</p>')
        if not blind and n.reference:
            out.append(f'<p class="ctxref"><i>{_e(labels["reference"])}</i>{colon}{_e(n.reference)}</p>')
        if n.output:
            out.append(f'<p class="ctxref"><i>{_e(labels["output"])}</i>{colon}{_e(n.output)}</p>')

    for n in context.before:
        one(n)
    out.append(f'<p class="ctx"><b>{_e(labels.get("this_entry", "▶"))}</b> {_e(current or "")}</p>')
    for n in context.after:
        one(n)
    return "".join(out)


def _reference_like(data: ReviewData, predicted: str) -> str:
    """The reference written in the script most of the output's words are in (as written without tables)."""
    e = data.entry
    if not data.written_in or not e.reference:
        return e.reference or ""
    best, best_n = e.reference, 0
    for texts in data.written_in.values():
        letters = {c for t in texts[:1] for c in t if c.isalpha()}
        n = sum(1 for c in predicted if c in letters)
        if n > best_n:
            best, best_n = texts[0], n
    return best


class ReferenceAnalyser:
    """On-demand analysis of reference words with the target language's installed analyzer.

    The analyzer is found like the scorer finds it (:func:`mteval_gui.fst.find_analyzer`) and
    loaded once per language. Returns None when no analyzer is installed.
    """

    def __init__(self, base=None) -> None:
        self.base = base
        self._loaded: dict[str, object] = {}

    def analyse(self, lang: str, text: str) -> list[FstWord] | None:
        from mteval_gui.cards import try_load_card
        from mteval_gui.fst import find_analyzer, load_analyzer

        analyzer = self._loaded.get(lang)
        if analyzer is None:
            path = find_analyzer(try_load_card(lang), "strict", lang=lang, base=self.base)
            if path is None:
                return None
            analyzer = load_analyzer(path)
            self._loaded[lang] = analyzer
        words = analyzer.analyse_text(text)  # type: ignore[attr-defined]
        return [FstWord(w.token, bool(w.analyses), tuple(a.raw for a in w.analyses)) for w in words]


def _span_term(labels: dict[str, str], span: dict[str, Any]) -> str:
    """``major untranslated`` in the interface language (``labels`` carries ``severity:ID`` and
    ``category:ID`` names; an id without one is shown as it is)."""
    severity = str(span.get("severity") or "")
    category = str(span.get("category") or "")
    parts = [labels.get(f"severity:{severity}", severity),
             labels.get(f"category:{category}", category) if category else ""]
    return " ".join(p for p in parts if p)
