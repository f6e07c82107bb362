"""COMET, the learned MT metric of Unbabel (``core.comet``, LYSS §2.3, SPEC §3).

Reported for transparency, never part of the composite: COMET was trained on human
judgments of mostly European high-resource language pairs, so its absolute values are not
calibrated for low-resource languages. Every result carries a coverage flag read from the
language cards (``metricModelSupport``): when a card marks its language as not covered by
the model's encoder, the corpus result says so (``extra["covered"] is False`` plus a
``comet_language_not_covered`` caveat in ``extra["caveats"]``; unknown coverage gives a
``comet_coverage_unknown`` caveat).

Model choice (:func:`resolve_comet_model`): an explicit choice (``options["comet_model"]``,
a Hugging Face model id or a local checkpoint path) → the target card's
``metricModelSupport["comet"].model`` (AfriCOMET ``masakhane/africomet-mtl`` for the African
languages it was trained on) → ``Unbabel/wmt22-comet-da``.

Scoring never touches the network. A model is loaded from a local path (a ``.ckpt`` file, or
a folder holding ``hparams.yaml`` and ``checkpoints/model.ckpt``) or from the local Hugging
Face cache, in offline mode. A model that is not there makes the metric ``unavailable`` with
the command that fetches it once online (``mteval models download NAME``).

``unbabel-comet`` and ``torch`` are optional (extra ``comet``) and imported inside functions
only. Per entry the metric stores the segment score; the corpus value is their mean, so
bootstrap intervals are computed from the stored per-entry scores without rerunning the model.
Empty or failed outputs are scored as empty hypotheses. Entries without a reference are left
unscored (``value`` null) when the model needs references.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import sys
import threading
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.runcard import Caveat
from mteval_gui.errors import PluginError
from mteval_gui.paths import extra_install_hint
from mteval_gui.scoring.plugins import (
    BaseMetric,
    CorpusScore,
    EntryInput,
    EntryScore,
    MetricInfo,
    MetricUnavailable,
    ScoringContext,
)
from mteval_gui.scoring.stats import EntryStats

METRIC_ID = "core.comet"
DEFAULT_COMET_MODEL = "Unbabel/wmt22-comet-da"
AFRICOMET_MODEL = "masakhane/africomet-mtl"
CHECKPOINT_IN_FOLDER = Path("checkpoints") / "model.ckpt"
INSTALL_HINT = f"COMET needs the optional extra: {extra_install_hint('comet')} (install torch==2.13.0 first)"
NOT_COVERED_CAVEAT = "comet_language_not_covered"

# Files of a model's encoder (named by ``pretrained_model`` in hparams.yaml) that COMET reads
# when it rebuilds the encoder: its configuration and tokenizer, never its weights.
ENCODER_FILE_PATTERNS: tuple[str, ...] = (
    "config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
    "sentencepiece.bpe.model", "*.model", "vocab.txt", "vocab.json", "merges.txt",
)

_OFFLINE_ENV = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE")
_NOISY_LOGGERS = ("pytorch_lightning", "lightning", "lightning.pytorch", "lightning_fabric", "comet",
                  "transformers")


def not_downloaded_message(name: str, detail: str = "") -> str:
    msg = (f"COMET model {name} not downloaded: run `mteval models download {name}` once online "
           "(or `mteval models add FOLDER` for a model folder copied by hand)")
    return f"{msg} ({detail})" if detail else msg


# --------------------------------------------------------------------------- model choice


@dataclass(frozen=True)
class CometModelChoice:
    """Which COMET model scores a corpus, why, and whether it covers the languages."""

    name: str  # a Hugging Face model id or a local path, as chosen
    source: str  # "explicit" | "card" | "default"
    covered: bool | None  # None: no card says
    note: str | None = None
    uncovered_languages: tuple[str, ...] = ()


def _support_for(card: LanguageCard | None, model: str) -> tuple[bool | None, str | None]:
    """What ``card`` says about ``model``: (covered, note); (None, None) when it says nothing.

    Every ``metricModelSupport`` entry whose key starts with ``comet`` is consulted; the one
    naming this model decides.
    """
    if card is None:
        return None, None
    for key, support in card.metric_model_support.items():
        if key.lower().startswith("comet") and support.model == model:
            return support.covered, support.note
    return None, None


def resolve_comet_model(target_card: LanguageCard | None, explicit: str | None = None,
                        source_card: LanguageCard | None = None) -> CometModelChoice:
    """Explicit choice → the target card's ``metricModelSupport["comet"]`` → wmt22-comet-da.

    Coverage is read from the target card (and the source card, when given) for the chosen
    model; a language whose card marks the model as not covering it is listed in
    ``uncovered_languages``.
    """
    if explicit:
        name, source = str(explicit), "explicit"
    elif target_card is not None and "comet" in target_card.metric_model_support:
        name, source = target_card.metric_model_support["comet"].model, "card"
    else:
        name, source = DEFAULT_COMET_MODEL, "default"
    target_covered, target_note = _support_for(target_card, name)
    source_covered, source_note = _support_for(source_card, name)
    uncovered = tuple(card.code for card, c in ((target_card, target_covered), (source_card, source_covered))
                      if card is not None and c is False)
    covered: bool | None = False if uncovered else target_covered
    notes = "; ".join(n for n in (target_note, source_note) if n) or None
    return CometModelChoice(name, source, covered, notes, uncovered)


# --------------------------------------------------------------------------- local files


@dataclass(frozen=True)
class LocatedModel:
    """A COMET checkpoint found on this machine."""

    name: str
    checkpoint: Path
    hparams: Path
    revision: str | None = None  # Hugging Face snapshot commit, when from the cache


def looks_like_path(name: str) -> bool:
    """A file-system path rather than a Hugging Face id (``org/name``, at most one slash)."""
    return (name.endswith(".ckpt") or name.startswith((".", "/", "~")) or "\\" in name
            or name.count("/") > 1 or (len(name) > 1 and name[1] == ":"))


def added_models_dir() -> Path:
    """Where ``mteval models add`` puts model folders copied by hand (one folder per model)."""
    from mteval_gui.paths import models_dir

    return models_dir() / "comet"


def model_slug(name: str) -> str:
    """The folder name of an added model (``org/name`` -> ``org--name``)."""
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in name.replace("/", "--")).strip(".") or "model"


def _hparams_for(checkpoint: Path) -> Path:
    return checkpoint.parent.parent / "hparams.yaml"


def locate_comet_model(name: str, *, cache_dir: str | Path | None = None) -> LocatedModel:
    """Find ``name`` (local path or Hugging Face id) on disk, without any network access.

    Raises :class:`MetricUnavailable` naming the download command when it is absent.
    """
    path = Path(name).expanduser()
    if path.exists():
        ckpt = path if path.is_file() else path / CHECKPOINT_IN_FOLDER
        if not ckpt.is_file():
            raise MetricUnavailable(f"COMET model folder {path} has no {CHECKPOINT_IN_FOLDER.as_posix()}")
        hparams = _hparams_for(ckpt.resolve())
        if not hparams.is_file():
            raise MetricUnavailable(f"COMET checkpoint {ckpt} has no hparams.yaml in {hparams.parent}")
        return LocatedModel(str(name), ckpt.resolve(), hparams)
    if looks_like_path(name):
        raise MetricUnavailable(f"COMET checkpoint {name} does not exist")
    added = added_models_dir() / model_slug(name)
    if (added / CHECKPOINT_IN_FOLDER).is_file() and (added / "hparams.yaml").is_file():
        return LocatedModel(name, (added / CHECKPOINT_IN_FOLDER).resolve(), added / "hparams.yaml")
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError as exc:
        raise MetricUnavailable(INSTALL_HINT) from exc
    found = {}
    for rel in (CHECKPOINT_IN_FOLDER.as_posix(), "hparams.yaml"):
        try:
            hit = try_to_load_from_cache(name, rel, cache_dir=str(cache_dir) if cache_dir else None)
        except Exception as exc:  # invalid repo ids are reported, never raised raw
            raise MetricUnavailable(f"COMET model name {name!r} is not a local path nor a model id: {exc}") from exc
        if not isinstance(hit, str):
            raise MetricUnavailable(not_downloaded_message(name))
        found[rel] = Path(hit)
    ckpt = found[CHECKPOINT_IN_FOLDER.as_posix()]
    return LocatedModel(name, ckpt, found["hparams.yaml"], revision=ckpt.parent.parent.name)


def read_hparams(path: Path) -> dict[str, Any]:
    try:
        import yaml
    except ImportError as exc:
        raise MetricUnavailable(INSTALL_HINT) from exc
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise PluginError(METRIC_ID, f"cannot read {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise PluginError(METRIC_ID, f"{path} is not a mapping of hyper-parameters")
    return data


def encoder_files_present(pretrained_model: str, *, cache_dir: str | Path | None = None) -> bool:
    """Whether the encoder's configuration and tokenizer are on disk (folder or HF cache)."""
    p = Path(pretrained_model).expanduser()
    if p.is_dir():
        return (p / "config.json").is_file()
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    try:
        hit = try_to_load_from_cache(pretrained_model, "config.json", cache_dir=str(cache_dir) if cache_dir else None)
    except Exception:  # noqa: BLE001 - an invalid id is simply "not present"
        return False
    return isinstance(hit, str)


# --------------------------------------------------------------------------- loading


def _env_true(value: str | None) -> bool:
    return (value or "").strip().upper() in {"1", "ON", "YES", "TRUE"}


@contextlib.contextmanager
def offline() -> Iterator[None]:
    """Hugging Face libraries in offline mode for the duration of the block (then restored)."""
    saved = {k: os.environ.get(k) for k in _OFFLINE_ENV}
    for k in _OFFLINE_ENV:
        os.environ[k] = "1"
    consts: Any = sys.modules.get("huggingface_hub.constants")
    saved_const = getattr(consts, "HF_HUB_OFFLINE", None) if consts is not None else None
    if consts is not None:
        consts.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        consts = sys.modules.get("huggingface_hub.constants")
        if consts is not None:
            consts.HF_HUB_OFFLINE = saved_const if saved_const is not None else (
                _env_true(saved["HF_HUB_OFFLINE"]) or _env_true(saved["TRANSFORMERS_OFFLINE"]))


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence COMET/Lightning chatter (device banners, tips, deprecations) on the console."""
    levels = {}
    for name in _NOISY_LOGGERS:
        lg = logging.getLogger(name)
        levels[name] = lg.level
        lg.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def import_comet() -> Any:
    """Import ``comet`` (offline, quietly), undoing the root-logger setup it does on import."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        with offline(), _quiet():
            import comet
    except ImportError as exc:
        raise MetricUnavailable(INSTALL_HINT) from exc
    except Exception as exc:  # a broken installation is reported, never raised raw
        raise MetricUnavailable(f"COMET could not be imported ({type(exc).__name__}: {exc}); {INSTALL_HINT}") from exc
    finally:
        for h in list(root.handlers):
            if h not in handlers:
                root.removeHandler(h)
        root.setLevel(level)
    return comet


_CACHE_LOCK = threading.Lock()
_LOADED: dict[tuple[str, int, int], Any] = {}


def load_comet_model(located: LocatedModel) -> Any:
    """Load a located checkpoint (cached: one model per process, reused by later jobs).

    The encoder is rebuilt from the ``pretrained_model`` named in ``hparams.yaml`` with
    ``local_files_only``; its weights come from the checkpoint. A checkpoint that lacks
    parameters of the model it declares is refused (scores would come from random weights).
    """
    st = located.checkpoint.stat()
    key = (str(located.checkpoint), st.st_size, st.st_mtime_ns)
    with _CACHE_LOCK:
        if key in _LOADED:
            return _LOADED[key]
    comet = import_comet()
    hparams = read_hparams(located.hparams)
    encoder = hparams.get("pretrained_model")
    if isinstance(encoder, str) and not encoder_files_present(encoder):
        raise MetricUnavailable(not_downloaded_message(
            located.name, f"the files of its encoder {encoder} are missing"))
    with offline(), _quiet(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = comet.load_from_checkpoint(str(located.checkpoint), reload_hparams=True, local_files_only=True)
        except OSError as exc:
            raise MetricUnavailable(not_downloaded_message(located.name, f"{type(exc).__name__}: {exc}")) from exc
        except Exception as exc:  # COMET raises bare Exception/KeyError for bad folders
            raise PluginError(METRIC_ID, f"cannot load COMET checkpoint {located.checkpoint}: "
                                         f"{type(exc).__name__}: {exc}") from exc
    for w in caught:
        text = str(w.message)
        if "in the model state dict but not in the checkpoint" in text:
            raise PluginError(METRIC_ID, f"checkpoint {located.checkpoint} does not match its hparams.yaml "
                                         f"(parameters missing from the checkpoint): {text[:300]}")
    model.eval()
    with _CACHE_LOCK:
        _LOADED.clear()  # keep one model: they are large
        _LOADED[key] = model
    return model


def clear_model_cache() -> None:
    with _CACHE_LOCK:
        _LOADED.clear()


def predict(model: Any, samples: list[dict[str, str]], *, batch_size: int = 16, gpus: int = 0) -> list[float]:
    """Segment scores for ``samples`` ({src, mt[, ref]}), in order, via COMET's own ``predict``."""
    if not samples:
        return []
    with offline(), _quiet():
        try:
            out = model.predict(samples, batch_size=batch_size, gpus=gpus, progress_bar=False,
                                num_workers=0)
        except Exception as exc:  # any failure inside COMET/torch becomes a readable metric error
            raise PluginError(METRIC_ID, f"COMET prediction failed: {type(exc).__name__}: {exc}") from exc
    scores = [float(s) for s in out.scores]
    if len(scores) != len(samples):
        raise PluginError(METRIC_ID, f"COMET returned {len(scores)} scores for {len(samples)} segments")
    if not all(math.isfinite(s) for s in scores):
        raise PluginError(METRIC_ID, "COMET returned non-finite scores (NaN or infinity)")
    return scores


# --------------------------------------------------------------------------- the metric


class CometMetric(BaseMetric):
    """``core.comet``: COMET segment scores, corpus mean; reported, never in the composite.

    Options read from the scoring context: ``comet_model`` (model id or checkpoint path),
    ``comet_batch_size`` (default 16), ``comet_gpus`` (default 0 = CPU).
    """

    info = MetricInfo(
        id=METRIC_ID,
        version="1",
        display_name="COMET",
        role="comet",
        label="COMET",
        validation="proxy",
        scale="0-1",
        higher_is_better=True,
        needs_reference=True,
        heavy=True,
        gpu=True,
        produces=("comet_score", "comet_model"),
        description="Learned MT metric (Unbabel COMET / AfriCOMET). Not calibrated for low-resource "
                    "languages; reported for transparency and excluded from the composite.",
    )
    in_composite = False

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.choice: CometModelChoice | None = None
        self.located: LocatedModel | None = None
        self.model: Any = None

    def prepare(self, context: ScoringContext) -> None:
        super().prepare(context)
        explicit = context.options.get("comet_model") or self.params.get("model")
        self.choice = resolve_comet_model(context.target_card, explicit, context.source_card)
        import_comet()  # the missing extra is the first thing to report
        self.located = locate_comet_model(self.choice.name)
        self.model = load_comet_model(self.located)
        opts = {**self.params, **{k[len("comet_"):]: v for k, v in context.options.items() if k.startswith("comet_")}}
        self.batch_size = int(opts.get("batch_size") or 16)
        self.gpus = int(opts.get("gpus") or 0)
        try:
            self.needs_refs = bool(self.model.requires_references())
        except Exception:  # noqa: BLE001 - models of unknown classes: assume the safe answer
            self.needs_refs = True

    def score_entries(self, items: Sequence[EntryInput]) -> list[EntryScore]:
        if self.model is None:
            raise PluginError(METRIC_ID, "prepare() must run before score_entries()")
        with_ref: list[int] = []
        without_ref: list[int] = []
        for i, it in enumerate(items):
            (with_ref if it.entry.reference else without_ref).append(i)
        results: list[EntryScore | None] = [None] * len(items)
        groups = [(with_ref, True)]
        if self.needs_refs:
            for i in without_ref:
                results[i] = EntryScore(None, detail={"skipped": "no reference"})
        else:
            groups.append((without_ref, False))
        for idxs, use_ref in groups:
            samples = []
            for i in idxs:
                it = items[i]
                s = {"src": it.entry.source, "mt": it.predicted}
                if use_ref:
                    s["ref"] = it.entry.reference or ""
                samples.append(s)
            for i, score in zip(
                idxs, predict(self.model, samples, batch_size=self.batch_size, gpus=self.gpus), strict=True
            ):
                detail = {"empty_output": True} if not items[i].predicted.strip() else {}
                if not use_ref:
                    detail["reference_free"] = True
                results[i] = EntryScore(score, values={"comet_score": score}, detail=detail)
        return [r if r is not None else EntryScore(None) for r in results]

    def entry_statistics(self, per_entry: Sequence[EntryScore]) -> dict[str, EntryStats]:
        """COMET: the mean of the entries' scores."""
        return {"comet_score": EntryStats.mean([e.value for e in per_entry])}

    def aggregate(self, per_entry: Sequence[EntryScore], context: ScoringContext) -> CorpusScore:
        choice = self.choice or resolve_comet_model(
            context.target_card, context.options.get("comet_model") or self.params.get("model"), context.source_card)
        vals = [float(e.value) for e in per_entry if e.value is not None]
        extra: dict[str, Any] = {
            "model": choice.name,
            "model_source": choice.source,
            "in_composite": False,
            "scored_entries": len(vals),
            "skipped_entries": len(per_entry) - len(vals),
        }
        if self.located is not None:
            extra["checkpoint"] = str(self.located.checkpoint)
            if self.located.revision:
                extra["revision"] = self.located.revision
        caveats: list[Caveat] = []
        if choice.covered is not True:
            langs = ", ".join(choice.uncovered_languages) or (context.target_lang or "the target language")
            if choice.covered is False:
                message = (f"COMET model {choice.name} does not cover {langs}: scores are not reliable "
                           f"for this language and are reported for transparency only")
            else:
                message = (f"no language card states whether COMET model {choice.name} covers {langs}; "
                           f"COMET is not calibrated for low-resource languages")
            code = NOT_COVERED_CAVEAT if choice.covered is False else "comet_coverage_unknown"
            caveats.append(Caveat(code=code, message=message,
                                  detail={"model": choice.name, "languages": list(choice.uncovered_languages),
                                          "note": choice.note}))
        if not vals:
            return CorpusScore({"comet_score": None, "comet_model": choice.name}, availability="not_applicable",
                               reason="no entry has a reference to score against", extra=extra,
                               caveats=caveats, covered=choice.covered)
        return CorpusScore({"comet_score": sum(vals) / len(vals), "comet_model": choice.name}, extra=extra,
                           caveats=caveats, covered=choice.covered)
