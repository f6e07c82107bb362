"""Typed settings: what a workspace remembers, and what a scoring job is told.

:class:`WorkspaceSettings` declares every workspace setting once — its type, default, label
and help text. The settings dialog and ``mteval settings`` are both driven by it, and the
workspace stores one row per key (JSON value). :class:`ScoringOptions` is the typed form of
the options a scoring job receives; it is built from the settings by the application layer
and may be overridden from the command line or a dialog. Its JSON form is what the metrics
read as ``ScoringContext.options`` and what is stored with every scored run.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, field_validator

from mteval_gui.domain.base import DomainModel

ANALYZER_KINDS = ("strict", "descriptive", "generator")


class WorkspaceSettings(DomainModel):
    """Every setting of a workspace. Field titles are the labels shown to users."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    analyzer_dir: str | None = Field(
        default=None, title="Analyzer folder",
        description="Folder with the installed analyzers, one sub-folder per language code "
                    "(empty: the user data folder's analyzers folder).")
    analyzer_paths: dict[str, dict[str, str]] = Field(
        default_factory=dict, title="Analyzer files",
        description="Analyzer files per language and kind ({lang: {strict|descriptive|generator: path}}); "
                    "they win over the analyzer folder.")
    gloss_files: dict[str, list[str]] = Field(
        default_factory=dict, title="Gloss files",
        description="Dictionaries of a language's semantic validator ({lang: [path, ...]}).")
    comet_model: str | None = Field(
        default=None, title="COMET model",
        description="Hugging Face id or local checkpoint (empty: the language card's choice, else wmt22-comet-da).")
    cluster: str | None = Field(
        default=None, title="Ray cluster",
        description="Scores the batches on a Ray cluster: 'local' starts one on this machine, else the head's "
                    "address (HOST:6379); empty: this machine's processes. Needs the cluster extra.")
    default_reviewer: str | None = Field(
        default=None, title="Default reviewer", description="Reviewer selected when the workspace opens.")
    attention_checks: int = Field(
        default=0, ge=0, le=100, title="Attention checks",
        description="Known-bad outputs shown among the entries each reviewer rates on the desktop in blind "
                    "mode, per run (0: none); failed checks flag the reviewer in Validation.")
    repeated_items: int = Field(
        default=0, ge=0, le=100, title="Repeated items",
        description="Entries shown a second time to each reviewer rating on the desktop in blind mode, per run "
                    "(0: none); ratings far apart flag the reviewer in Validation.")
    glossaries: dict[str, str] = Field(
        default_factory=dict, title="Corpus glossaries",
        description="The glossary used for terminology, per corpus ({corpus_id: glossary_id}).")
    suite_folders: dict[str, str] = Field(
        default_factory=dict, title="Benchmark suite folders",
        description="The folder of test files last opened for each benchmark suite ({suite: folder}).")

    @field_validator("analyzer_paths")
    @classmethod
    def _kinds(cls, v: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for lang, kinds in v.items():
            bad = sorted(set(kinds) - set(ANALYZER_KINDS))
            if bad:
                raise ValueError(f"{lang}: unknown analyzer kind(s) {', '.join(bad)} "
                                 f"(use {', '.join(ANALYZER_KINDS)})")
        return v

    @classmethod
    def keys(cls) -> list[str]:
        return list(cls.model_fields)

    @classmethod
    def describe(cls, key: str) -> tuple[str, str, Any]:
        """(label, help text, default) of one key."""
        f = cls.model_fields[key]
        default = f.default_factory() if f.default_factory is not None else f.default  # type: ignore[call-arg]
        return f.title or key, f.description or "", default

    @classmethod
    def type_name(cls, key: str) -> str:
        """The key's type as written in the model (``str | None``, ``dict[str, list[str]]``)."""
        ann = cls.model_fields[key].annotation
        if isinstance(ann, type) and not getattr(ann, "__args__", None):
            return ann.__name__
        return str(ann).replace("typing.", "")


class ScoringOptions(DomainModel):
    """Options of one scoring job (typed). ``None`` / empty means "not set"."""

    model_config = ConfigDict(extra="forbid")

    analyzers_dir: str | None = None  # another analyzer folder than the user data folder's
    analyzer_path: str | None = None  # explicit strict analyzer file
    descriptive_analyzer_path: str | None = None
    generator_path: str | None = None
    # why the explicit analyzer files may not score this run (another language's card pins them):
    # the FST metrics are then unavailable with this reason
    analyzer_refused: str | None = None
    gloss_files: dict[str, list[str]] = Field(default_factory=dict)
    comet_model: str | None = None
    multi_ref: bool = False
    heavy: bool = False

    def to_context(self) -> dict[str, Any]:
        """The options as metrics read them (``ScoringContext.options``): unset ones left out."""
        return {k: v for k, v in self.model_dump(mode="json").items() if v not in (None, {}, [], False)}

    def merged(self, **overrides: Any) -> ScoringOptions:
        """A copy with the overrides that are set (not None / empty) applied."""
        data = self.model_dump()
        data.update({k: v for k, v in overrides.items() if v not in (None, {}, [])})
        return ScoringOptions.model_validate(data)

    @classmethod
    def from_settings(cls, settings: WorkspaceSettings, target_lang: str) -> ScoringOptions:
        """The options a workspace's settings give to a run whose target language is ``target_lang``."""
        mine = settings.analyzer_paths.get(target_lang, {})
        return cls(
            analyzers_dir=settings.analyzer_dir or None,
            analyzer_path=mine.get("strict"),
            descriptive_analyzer_path=mine.get("descriptive"),
            generator_path=mine.get("generator"),
            gloss_files=dict(settings.gloss_files),
            comet_model=settings.comet_model or None,
        )
