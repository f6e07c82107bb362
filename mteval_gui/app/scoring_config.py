"""What to score, and with which configuration (``mteval score`` and the GUI's Score action alike).

A scored run keeps the configuration it was scored with (:class:`ScoringConfiguration`, stored
in the workspace's ``runs.scoring_config`` and in its run card's ``scoring`` block): the metric
selection, the options (analyzer files, gloss files of the run's target language, COMET model,
multi-reference and heavy switches), the glossary, bootstrap resamples and seed, batch size,
every analyzer and gloss file read with its sha256, the versions of the job's metrics and the
content hashes of the corpus, the run and the language card.

:func:`plan_scoring` decides, run by run, what a scoring request does:

- **unscored**: scored with the workspace settings and the caller's overrides;
- **incomplete** (a job was cancelled or died): resumed with the configuration of that job;
- **stale** (an input changed since: corpus, run, language card, the content of an analyzer
  or gloss file — or which analyzer file would be used —, the glossary, a metric's version or
  its data files): scored again with its stored configuration;
- **incomplete** too when a metric of its run card ``failed`` (it raised, timed out, gave no
  finite number): scored again with its stored configuration — a failed result is never
  reused, so the failed metric is tried again and the stored results of the others are kept;
- **current**: left alone.

Scoring again recomputes only what is not reusable: a stored per-entry result is reused only
when every input it was computed from is unchanged
(:func:`mteval_gui.scoring.batches.config_of`).

A scored run (one with a run card) is scored with another configuration only with
``replace``: the caller's overrides then apply on top of the *stored* configuration (never on
the workspace settings, which only configure runs scored for the first time), and the plan
lists what changes. Without ``replace`` such a request is refused as a whole, naming every
change, and nothing is scored. ``replace`` without overrides scores a run again exactly as it
was scored.

Runs scored by an older version, which stored no configuration, get one reconstructed from
their scoring job (options, metric set, versions; ``recorded`` false).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mteval_gui.app.overrides import ScoringOverrides
from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.runcard import ScoringConfiguration, ScoringFile
from mteval_gui.domain.settings import ScoringOptions
from mteval_gui.errors import MtevalError
from mteval_gui.scoring.runner import DEFAULT_BATCH_SIZE
from mteval_gui.scoring.stats import DEFAULT_BOOTSTRAP, DEFAULT_SEED
from mteval_gui.store import repo
from mteval_gui.store.db import Workspace
from mteval_gui.store.results import failed_metrics, load_run_card_summary, scoring_job

__all__ = ["ScoringOverrides", "RunPlan", "ScoringPlan", "plan_scoring", "resolve_configuration",
           "stored_configuration", "configuration_changes", "stale_reasons", "settings_differences", "scoring_state"]

State = Literal["unscored", "incomplete", "stale", "current"]
Action = Literal["score", "resume", "rescore", "skip", "refuse"]
SCORING_ACTIONS: frozenset[str] = frozenset({"score", "resume", "rescore"})


# --------------------------------------------------------------------------- what the caller asks for


# ScoringOverrides (app/overrides.py): a light module, so that a one-shot evaluation takes the
# same parameter object without loading the workspace code this module needs


# --------------------------------------------------------------------------- files and inputs


def _sha256_path(path: Path) -> str | None:
    """sha256 of a file; of a folder, over the names and hashes of the files in it; None when absent."""
    from mteval_gui.fst.analyzer import sha256_file

    try:
        if path.is_file():
            return sha256_file(path)
        if path.is_dir():
            h = hashlib.sha256()
            for p in sorted(x for x in path.iterdir() if x.is_file()):
                h.update(f"{p.name}\0{sha256_file(p)}\n".encode())
            return h.hexdigest()
    except OSError:
        return None
    return None


def _analyzer_files(card: LanguageCard | None, target: str, options: ScoringOptions) -> list[ScoringFile]:
    from mteval_gui.fst.registry import KINDS, OPTION_KEYS, AnalyzerNotFound, find_analyzer

    base = Path(options.analyzers_dir).expanduser() if options.analyzers_dir else None
    out = []
    for kind in KINDS:
        explicit = getattr(options, OPTION_KEYS[kind], None)
        try:
            path = find_analyzer(card, kind, lang=target, path=explicit, base=base)
        except AnalyzerNotFound:
            path = Path(explicit) if explicit else None
        if path is not None:
            p = path.expanduser().resolve()
            out.append(ScoringFile(role="analyzer", kind=kind, language=target, path=str(p), sha256=_sha256_path(p)))
    return out


def _gloss_files(target: str, options: ScoringOptions) -> list[ScoringFile]:
    out = []
    for raw in options.gloss_files.get(target, []):
        p = Path(raw).expanduser().resolve()
        out.append(ScoringFile(role="gloss", language=target, path=str(p), sha256=_sha256_path(p)))
    return out


def _glossary_sha256(ws: Workspace, glossary_id: str | None) -> str | None:
    if not glossary_id:
        return None
    try:
        terms = repo.get_glossary(ws, glossary_id)["terms"]
    except MtevalError:
        return None
    blob = json.dumps(terms, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _card_sha256(target: str) -> str | None:
    from mteval_gui.cards import load_card_sha256

    try:
        return load_card_sha256(target)
    except MtevalError:
        return None


def _for_target(options: ScoringOptions, target: str) -> ScoringOptions:
    """The options as they concern a run of ``target``: gloss files of that language only; explicit
    analyzer files of another language (its card pins them) are not used, and the FST metrics say why."""
    from mteval_gui.app.analyzer_pins import foreign_analyzer

    gloss = {target: list(options.gloss_files[target])} if options.gloss_files.get(target) else {}
    data = {**options.model_dump(), "gloss_files": gloss}
    refused = foreign_analyzer(options, target)
    if refused is not None:
        data.update(analyzer_path=None, descriptive_analyzer_path=None, generator_path=None,
                    analyzer_refused=f"{refused[0]}: {refused[1]}")
    return ScoringOptions.model_validate(data)


@dataclass
class _Run:
    """What the configuration functions read about one run, read once."""

    run_id: str
    info: dict[str, Any]  # the runs row without the run card (repo.get_run_info)
    corpus: dict[str, Any]
    target: str
    card: LanguageCard | None

    @classmethod
    def load(cls, ws: Workspace, run_id: str) -> _Run:
        from mteval_gui.cards import try_load_card

        info = repo.get_run_info(ws, run_id)
        corpus = repo.get_corpus_info(ws, info["corpus_id"])
        target = str(corpus["target_lang"])
        return cls(run_id, info, corpus, target, try_load_card(target))


def resolve_configuration(ws: Workspace, run_id: str, base: ScoringConfiguration | None = None,
                          overrides: ScoringOverrides | None = None) -> ScoringConfiguration:
    """The configuration a run would be scored with now: ``base`` (None: the workspace settings
    and defaults) with ``overrides`` on top, its files resolved and hashed, the present hashes of
    its inputs. ``metric_versions`` and ``comet_model`` are filled in when the job has run."""
    return _resolve(ws, _Run.load(ws, run_id), base, overrides)


def _resolve(ws: Workspace, run: _Run, base: ScoringConfiguration | None,
             overrides: ScoringOverrides | None) -> ScoringConfiguration:
    from mteval_gui.app.settings import load_settings, scoring_options_for

    over = overrides or ScoringOverrides()
    if base is None:
        options = scoring_options_for(ws, run.target)
        metrics: list[str] | None = None
        exclude: list[str] = []
        glossary = load_settings(ws).glossaries.get(run.info["corpus_id"])
        params: dict[str, Any] = {}
        seed, n_bootstrap, batch_size = DEFAULT_SEED, DEFAULT_BOOTSTRAP, DEFAULT_BATCH_SIZE
        profile: str | None = None
    else:
        profile = base.composite_profile
        options, metrics, exclude = base.options, base.metrics, list(base.exclude)
        glossary, params = base.glossary, dict(base.params)
        seed = base.seed if base.seed is not None else DEFAULT_SEED
        n_bootstrap = base.n_bootstrap if base.n_bootstrap is not None else DEFAULT_BOOTSTRAP
        batch_size = base.batch_size if base.batch_size is not None else DEFAULT_BATCH_SIZE
    if over.options is not None:
        update = {k: getattr(over.options, k) for k in over.options.model_fields_set}
        if "gloss_files" in update:
            update["gloss_files"] = {**options.gloss_files, **update["gloss_files"]}
        options = ScoringOptions.model_validate({**options.model_dump(), **update})
    options = _for_target(options, run.target)
    if over.metrics is not None:
        metrics = list(over.metrics)
    if over.exclude is not None:
        exclude = list(over.exclude)
    if over.glossary is not None:
        glossary = over.glossary
    if over.params is not None:
        params = dict(over.params)
    seed = over.seed if over.seed is not None else seed
    n_bootstrap = over.n_bootstrap if over.n_bootstrap is not None else n_bootstrap
    batch_size = over.batch_size if over.batch_size is not None else batch_size
    profile = over.composite_profile if over.composite_profile is not None else profile
    return ScoringConfiguration(
        metrics=metrics, exclude=exclude, options=options, glossary=glossary,
        glossary_sha256=_glossary_sha256(ws, glossary), params=params, seed=seed, n_bootstrap=n_bootstrap,
        batch_size=batch_size, composite_profile=profile,
        files=_analyzer_files(run.card, run.target, options) + _gloss_files(run.target, options),
        corpus_sha256=run.corpus.get("sha256"), run_sha256=run.info.get("content_sha256"),
        language_card_sha256=_card_sha256(run.target))


# --------------------------------------------------------------------------- stored configurations


def _glossary_with_terms(ws: Workspace, terms: Mapping[str, Any] | None) -> str | None:
    if not terms:
        return None
    for g in repo.list_glossaries(ws):
        if repo.get_glossary(ws, g["glossary_id"])["terms"] == dict(terms):
            return str(g["glossary_id"])
    return None


def _legacy_configuration(ws: Workspace, run: _Run, job: Mapping[str, Any],
                          card: Mapping[str, Any] | None) -> ScoringConfiguration:
    """A configuration rebuilt from the scoring job of a run scored before configurations were
    stored: its options and metrics (the language's metric set less those the job did not try),
    its metric versions, and the analyzer hashes its run card recorded."""
    from mteval_gui.scoring.plugins import metrics_for

    card = card or {}
    config = job.get("config") or {}
    raw = {k: v for k, v in (config.get("options") or {}).items() if k in ScoringOptions.model_fields}
    options = _for_target(ScoringOptions.model_validate(raw), run.target)
    job_metrics = [m for m in config.get("metrics") or [] if isinstance(m, Mapping) and m.get("id")]
    tried = {m for m in (card.get("metric_availability") or {}) if "." in m} | {m["id"] for m in job_metrics}
    exclude = [r.id for r in metrics_for(run.card) if r.id not in tried] if tried else []
    fst = card.get("fst") or {}
    recorded = {"strict": fst.get("sha256"), "descriptive": fst.get("descriptive_sha256")}
    files = [f.model_copy(update={"sha256": recorded[f.kind or ""]}) if recorded.get(f.kind or "") else f
             for f in _analyzer_files(run.card, run.target, options)]
    glossary = _glossary_with_terms(ws, config.get("glossary"))
    # this tool's digest: ``score_fingerprint``, or ``fingerprint`` in a card of an older version
    components = (card.get("score_fingerprint") or card.get("fingerprint") or {}).get("components") or {}
    return ScoringConfiguration(
        metrics=None, exclude=exclude, options=options, glossary=glossary,
        glossary_sha256=_glossary_sha256(ws, glossary), params=dict(config.get("params") or {}),
        seed=card.get("bootstrap_seed"), n_bootstrap=components.get("n_bootstrap"),
        batch_size=job.get("batch_size"), files=files + _gloss_files(run.target, options),
        comet_model=(card.get("scores") or {}).get("comet_model") or None,
        metric_versions={m["id"]: m.get("version") for m in job_metrics},
        corpus_sha256=config.get("corpus_sha256"), run_sha256=config.get("run_sha256"),
        language_card_sha256=card.get("language_card_sha256"), recorded=False)


def stored_configuration(ws: Workspace, run_id: str) -> ScoringConfiguration | None:
    """The configuration of the run's latest scoring job (reconstructed for older runs); None if never scored."""
    return _stored(ws, _Run.load(ws, run_id))


def _stored(ws: Workspace, run: _Run) -> ScoringConfiguration | None:
    raw = run.info.get("scoring_config")
    if raw is not None:
        return ScoringConfiguration.model_validate(raw)
    job = scoring_job(ws, run.run_id)
    if job is None:
        return None
    card = load_run_card_summary(ws, run.run_id) if run.info.get("has_run_card") else None
    return _legacy_configuration(ws, run, job, card)


# --------------------------------------------------------------------------- differences


def _metric_set(metrics: Sequence[str] | None, exclude: Sequence[str]) -> str:
    text = "every metric that applies" if metrics is None else ", ".join(sorted(metrics)) or "none"
    return text + (f" except {', '.join(sorted(exclude))}" if exclude else "")


def _value(v: Any) -> str:
    if v is None or v == [] or v == {}:
        return "none"
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, list):
        return ", ".join(map(str, v))
    return str(v)


_OPTION_LABELS = {
    "analyzers_dir": "analyzer folder", "analyzer_path": "analyzer file",
    "descriptive_analyzer_path": "descriptive analyzer file", "generator_path": "generator file",
    "comet_model": "COMET model", "multi_ref": "multi-reference scoring", "heavy": "model-based metrics (--heavy)",
}


def configuration_changes(old: ScoringConfiguration, new: ScoringConfiguration) -> list[str]:
    """What ``new`` changes in ``old`` (the choices, not the inputs), one line each."""
    def chosen(c: ScoringConfiguration) -> tuple[list[str] | None, list[str]]:
        return (None if c.metrics is None else sorted(c.metrics)), sorted(c.exclude)

    out = []
    if chosen(old) != chosen(new):
        line = f"metrics: {_metric_set(old.metrics, old.exclude)} → {_metric_set(new.metrics, new.exclude)}"
        if old.metrics is not None and new.metrics is not None:
            dropped = sorted(set(old.metrics) - set(new.metrics))
            if dropped:
                line += f" (drops {', '.join(dropped)})"
        out.append(line)
    o, n = old.options, new.options
    for key, label in _OPTION_LABELS.items():
        a, b = getattr(o, key), getattr(n, key)
        if (a or None) != (b or None):
            out.append(f"{label}: {_value(a)} → {_value(b)}")
    for lang in sorted(set(o.gloss_files) | set(n.gloss_files)):
        a, b = o.gloss_files.get(lang, []), n.gloss_files.get(lang, [])
        if a != b:
            out.append(f"gloss files ({lang}): {_value(a)} → {_value(b)}")
    if old.glossary != new.glossary:
        out.append(f"glossary: {_value(old.glossary)} → {_value(new.glossary)}")
    for key, label in (("seed", "bootstrap seed"), ("n_bootstrap", "bootstrap resamples")):
        a, b = getattr(old, key), getattr(new, key)
        if a is not None and a != b:
            out.append(f"{label}: {a} → {b}")
    if old.composite_profile != new.composite_profile:
        out.append(f"composite profile: {_value(old.composite_profile) if old.composite_profile else 'seed'} → "
                   f"{_value(new.composite_profile) if new.composite_profile else 'seed'}")
    if (old.params or {}) != (new.params or {}):
        out.append(f"metric parameters: {json.dumps(old.params, sort_keys=True)} → "
                   f"{json.dumps(new.params, sort_keys=True)}")
    return out


def _current_versions(run: _Run, ids: Iterable[str]) -> dict[str, str | None]:
    """The installed version of each metric id (left out: no longer installed)."""
    from mteval_gui.errors import PluginError
    from mteval_gui.scoring.plugins import metrics_for, resolve

    refs = {r.id: r for r in metrics_for(run.card)}
    out: dict[str, str | None] = {}
    for mid in ids:
        ref = refs.get(mid)
        if ref is None:
            continue
        try:
            cls: Any = resolve(ref)  # a metric class: its MetricInfo is a class attribute
            out[mid] = cls.info.version
        except PluginError:
            out[mid] = None
    return out


def _changed_data(run: _Run, job: Mapping[str, Any] | None) -> list[str]:
    """The metrics of the run's last job whose data files (``MetricInfo.data_files``: word lists)
    changed since, one line each."""
    from mteval_gui.errors import PluginError
    from mteval_gui.scoring.batches import data_sha256
    from mteval_gui.scoring.plugins import metrics_for, module_folder, resolve

    config = (job or {}).get("config") or {}
    stored = {m.get("id"): m.get("data") for m in config.get("metrics") or [] if isinstance(m, dict)}
    if not any(stored.values()):
        return []
    params = config.get("params") or {}
    out = []
    for ref in metrics_for(run.card):
        if not stored.get(ref.id):
            continue
        try:
            cls: Any = resolve(ref)
        except PluginError:  # no longer installed: said by the metric versions
            continue
        own = params.get(ref.id)
        now = data_sha256(module_folder(cls), cls.info.data_files,
                          {**ref.params, **(own if isinstance(own, Mapping) else {})})
        if now != stored[ref.id]:
            out.append(f"the data files of metric {ref.id} changed")
    return out


def stale_reasons(ws: Workspace, run_id: str, stored: ScoringConfiguration) -> list[str]:
    """Which inputs of a run scored with ``stored`` changed since (empty: none)."""
    run = _Run.load(ws, run_id)
    return _stale(run, stored, _resolve(ws, run, stored, None)) + _changed_data(run, scoring_job(ws, run_id))


def _stale(run: _Run, stored: ScoringConfiguration, now: ScoringConfiguration) -> list[str]:
    """``now``: the stored configuration resolved today."""
    out = []
    if stored.corpus_sha256 and now.corpus_sha256 != stored.corpus_sha256:
        out.append("the corpus changed")
    if stored.run_sha256 and now.run_sha256 != stored.run_sha256:
        out.append("the run's outputs changed")
    if stored.language_card_sha256 != now.language_card_sha256:
        out.append("the language card changed" if now.language_card_sha256 else "the language card is gone")
    before = {(f.role, f.kind or f.path): f for f in stored.files}
    after = {(f.role, f.kind or f.path): f for f in now.files}
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        what = f"{key[1]} analyzer" if key[0] == "analyzer" else "gloss file"
        if a is None and b is not None:
            out.append(f"{what} {b.path} is found now")
        elif b is None and a is not None:
            out.append(f"{what} {a.path} is no longer found")
        elif a is not None and b is not None:
            if a.path != b.path:
                out.append(f"{what}: {b.path} is used now instead of {a.path}")
            elif a.sha256 != b.sha256:
                state = "is missing" if b.sha256 is None else ("appeared" if a.sha256 is None else "changed content")
                out.append(f"{what} {a.path} {state}")
    if stored.glossary and now.glossary_sha256 != stored.glossary_sha256:
        gone = "changed" if now.glossary_sha256 else "is no longer in the workspace"
        out.append(f"glossary {stored.glossary} {gone}")
    versions = _current_versions(run, stored.metric_versions)
    for mid, version in sorted(stored.metric_versions.items()):
        if mid not in versions:
            out.append(f"metric {mid} is no longer installed")
        elif versions[mid] != version:
            out.append(f"metric {mid} version {version} → {versions[mid]}")
    return out


def _norm(path: str | None) -> str | None:
    return str(Path(path).expanduser().resolve()) if path else None


def settings_differences(ws: Workspace, run_id: str, stored: ScoringConfiguration) -> list[str]:
    """Where the workspace settings now say otherwise than the run's stored configuration (one
    line each, stored → settings): analyzer folder and files, gloss files of the run's language,
    the COMET model (when COMET was asked for) and the corpus's glossary. Such a run keeps its
    stored configuration when scored again; only options given with ``replace`` change it."""
    return _settings_diff(ws, _Run.load(ws, run_id), stored)


def _settings_diff(ws: Workspace, run: _Run, stored: ScoringConfiguration) -> list[str]:
    from mteval_gui.app.settings import load_settings, scoring_options_for

    settings = _for_target(scoring_options_for(ws, run.target), run.target)
    mine = stored.options
    out = []
    for key in ("analyzers_dir", "analyzer_path", "descriptive_analyzer_path", "generator_path"):
        a, b = _norm(getattr(mine, key)), _norm(getattr(settings, key))
        if a != b:
            out.append(f"{_OPTION_LABELS[key]}: {_value(a)} → {_value(b)}")
    a_gloss = [_norm(p) for p in mine.gloss_files.get(run.target, [])]
    b_gloss = [_norm(p) for p in settings.gloss_files.get(run.target, [])]
    if a_gloss != b_gloss:
        out.append(f"gloss files ({run.target}): {_value(a_gloss)} → {_value(b_gloss)}")
    if (mine.heavy or stored.comet_model) and (mine.comet_model or None) != (settings.comet_model or None):
        out.append(f"{_OPTION_LABELS['comet_model']}: {_value(mine.comet_model)} → {_value(settings.comet_model)}")
    glossary = load_settings(ws).glossaries.get(run.info["corpus_id"]) or None
    if (stored.glossary or None) != glossary:
        out.append(f"glossary: {_value(stored.glossary)} → {_value(glossary)}")
    return out


# --------------------------------------------------------------------------- the plan


@dataclass
class RunPlan:
    """What a scoring request does to one run."""

    run_id: str
    state: State
    action: Action
    configuration: ScoringConfiguration  # what it is (or would be) scored with
    stored: ScoringConfiguration | None = None
    stale: list[str] = field(default_factory=list)  # inputs changed since it was scored
    changes: list[str] = field(default_factory=list)  # what the request changes in the stored configuration
    # where the workspace settings differ from the stored configuration (not applied: see settings_differences)
    settings: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # metrics of its run card that failed ("id: reason")

    @property
    def scores(self) -> bool:
        return self.action in SCORING_ACTIONS

    @property
    def message(self) -> str:
        """One line for the user: what happens to the run, and why ("" for a first scoring)."""
        changes = "; ".join(self.changes)
        kept = ""
        if self.settings and not self.changes:
            kept = (f"; the workspace settings differ ({'; '.join(self.settings)}) but are not applied: "
                    "options given with --replace change the stored configuration")
        if self.action == "skip":
            return f"{self.run_id}: up to date (same configuration and inputs); --replace scores it again" + kept
        if self.action == "refuse":
            return f"{self.run_id}: already scored with another configuration; this would change: {changes}"
        if self.action == "resume":
            changed = f"; changed: {changes}" if changes else ""
            return f"{self.run_id}: resuming its interrupted scoring job{changed}{kept}"
        if self.action == "rescore":
            line = f"{self.run_id}: scoring it again with its stored configuration"
            if changes:
                line += f", changed: {changes}"
            if self.stale:
                line += f" (inputs changed since: {'; '.join(self.stale)})"
            if self.failed:
                line += f"; trying again what failed: {'; '.join(self.failed)}"
            return line + kept
        return f"{self.run_id}: starting over; changed: {changes}" if changes else ""


@dataclass
class ScoringPlan:
    """The decision for every run of a request (see the module docstring)."""

    runs: list[RunPlan]
    replace: bool = False

    @property
    def to_score(self) -> list[RunPlan]:
        return [p for p in self.runs if p.scores]

    @property
    def skipped(self) -> list[RunPlan]:
        return [p for p in self.runs if p.action == "skip"]

    @property
    def refused(self) -> list[RunPlan]:
        return [p for p in self.runs if p.action == "refuse"]

    def refusal(self) -> str | None:
        """Why the request is refused (None: it is not): every run it would change, and how."""
        if not self.refused:
            return None
        lines = [p.message for p in self.refused]
        which = "this run" if len(lines) == 1 else "these runs"
        return ("\n".join(lines) + f"\nnothing was scored: add --replace to score {which} again that way, "
                "or leave those options out to keep the stored configuration")

    def require_allowed(self) -> None:
        """Raise :class:`~mteval_gui.errors.MtevalError` with :meth:`refusal` when the request is refused."""
        problem = self.refusal()
        if problem:
            raise MtevalError(problem)

    def job_kwargs(self, db_path: str | Path, *, cluster: str | None = None) -> dict[str, Any]:
        """Arguments of :data:`mteval_gui.app.scoring.SCORE_RUNS_TARGET` that carry out exactly this
        plan (the runs to score, each with its configuration) in a background process (``cluster``:
        the Ray cluster that scores the batches)."""
        return job_kwargs(db_path, [(p.run_id, p.configuration) for p in self.to_score], replace=self.replace,
                          cluster=cluster)


def job_kwargs(db_path: str | Path, jobs: Sequence[tuple[str, ScoringConfiguration]], *, replace: bool,
               workers: int | None = None, cluster: str | None = None,
               cluster_workers: int | None = None) -> dict[str, Any]:
    """Arguments of :data:`mteval_gui.app.scoring.SCORE_RUNS_TARGET` scoring ``jobs`` (run id,
    configuration) in a background process (``workers``: None for both cores; ``cluster``: the
    Ray cluster that scores the batches, with ``cluster_workers`` CPU workers)."""
    out: dict[str, Any] = {"db_path": str(db_path), "run_ids": [r for r, _ in jobs], "replace": replace,
                           "configurations": {r: c.model_dump(mode="json") for r, c in jobs}}
    if workers is not None:
        out["workers"] = workers
    if cluster:
        out["cluster"] = cluster
        if cluster_workers is not None:
            out["cluster_workers"] = cluster_workers
    return out


def _plan_one(ws: Workspace, run_id: str, overrides: ScoringOverrides, replace: bool) -> RunPlan:
    run = _Run.load(ws, run_id)
    stored = _stored(ws, run)
    if stored is None:
        return RunPlan(run_id, "unscored", "score", _resolve(ws, run, None, overrides))
    job = scoring_job(ws, run_id)
    scored = bool(run.info.get("has_run_card"))
    incomplete = job is not None and job.get("state") != "done"
    now = _resolve(ws, run, stored, None)  # the stored choices with today's inputs
    stale = _stale(run, stored, now) + _changed_data(run, job)
    wanted = now if overrides.empty else _resolve(ws, run, stored, overrides)
    changes = configuration_changes(stored, wanted)
    failed = [f"{mid}: {reason}" if reason else mid for mid, reason in failed_metrics(ws, run_id)] if scored else []
    state: State = ("incomplete" if incomplete else "unscored" if not scored else "stale" if stale
                    else "incomplete" if failed else "current")
    action: Action
    if not scored:  # nothing complete to lose: resume, or start over with what is asked
        action = "resume" if incomplete and not changes else "score"
    elif changes and not replace:
        action = "refuse"
    elif changes or replace or stale or failed:
        action = "rescore"
    elif incomplete:
        action = "resume"
    else:
        action = "skip"
    return RunPlan(run_id, state, action, wanted, stored, stale, changes, _settings_diff(ws, run, stored), failed)


def scoring_state(ws: Workspace, run_id: str) -> RunPlan:
    """Where one run stands (``state``, ``stored`` configuration, ``stale`` reasons): the plan of
    a request without overrides."""
    return _plan_one(ws, run_id, ScoringOverrides(), False)


def plan_scoring(ws: Workspace, run_ids: Sequence[str] | None = None, overrides: ScoringOverrides | None = None,
                 *, replace: bool = False) -> ScoringPlan:
    """The decision for ``run_ids`` (None: every run of the workspace, in import order).

    Nothing is scored or written: :func:`mteval_gui.app.scoring.score_workspace_run` with each
    :attr:`RunPlan.configuration`, or a background job with :meth:`ScoringPlan.job_kwargs`,
    carries the plan out.
    """
    from mteval_gui.app.standards import rediscover_if_changed

    rediscover_if_changed()  # a plugin installed since this process discovered them provides metrics now
    ids = list(run_ids) if run_ids is not None else [r["run_id"] for r in repo.list_runs(ws)]
    for run_id in ids:
        if not repo.run_exists(ws, run_id):
            raise MtevalError(f"unknown run {run_id!r} (see `mteval list runs`)")
    over = overrides or ScoringOverrides()
    return ScoringPlan([_plan_one(ws, run_id, over, replace) for run_id in ids], replace)
