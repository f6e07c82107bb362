"""What a benchmark suite plugin provides: :class:`BenchmarkSuite`.

A plugin package declares its suites in its entry-point object
(:class:`~mteval_gui.domain.plugin.SuiteDecl`: name, title and ``"module:attribute"`` of an
instance of a :class:`BenchmarkSuite` subclass). The framework does everything that is the
same for every suite: it reads the suite folder and the responses (strict JSON, every defect
located by ``file:line``), decides each test's status (answered, provider error, missing,
unscorable, category not run), scores categories and the weighted suite score, ranks models,
stores runs in the workspace, and drives ``mteval bench NAME …`` (also ``mteval NAME …``) and
the GUI's benchmark tab. The suite says what is its own:

- its categories with their weights, titles and short labels (:class:`SuiteCategory`);
- the test record format: :meth:`BenchmarkSuite.check_test` turns one raw JSON test of a
  category file into a :class:`~mteval_gui.domain.benchmark.BenchTest` (its own subclass)
  and its defects — the suite folder is ``<category>.json`` files, each a JSON list of tests;
- its methods: :meth:`BenchmarkSuite.score_test` scores one response ``(score 0..1,
  explanation)``; the explanation is a JSON-serialisable dict with ``method``, ``score`` and
  ``lines`` (short statements shown to reviewers);
- the data it scores with (word lists, folds), loaded once per scoring by
  :meth:`BenchmarkSuite.prepare` and described (file names, sha256) in every result.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mteval_gui.domain.benchmark import PASS_THRESHOLD, BenchTest, SuiteDefect
from mteval_gui.domain.card import LanguageCard
from mteval_gui.text import NORMALISATION_POLICY

Explained = tuple[float, dict[str, Any]]


@dataclass(frozen=True)
class SuiteCategory:
    name: str  # the category file's stem ("reasoning")
    title: str  # "Reasoning"
    weight: float
    short: str = ""  # a column heading ("Reas.")

    @property
    def label(self) -> str:
        return self.short or self.name[:6]


class BenchmarkSuite(ABC):
    """A benchmark suite (see the module docstring). Subclasses set the class attributes."""

    name: ClassVar[str]  # "ewebench": command name, stored runs' suite
    title: ClassVar[str]  # "ÈwéBench"
    score_name: ClassVar[str] = "score"  # "ÈwéScore"
    run_id_prefix: ClassVar[str] = "bench"  # stored runs are "<prefix>-<hash>"
    language: ClassVar[str | None] = None  # ISO 639-3 code of the language it tests, if one
    categories: ClassVar[tuple[SuiteCategory, ...]] = ()
    pass_threshold: ClassVar[float] = PASS_THRESHOLD
    scoring_rules: ClassVar[str] = ""  # how tests are scored, for `--help` and the GUI
    description: ClassVar[str] = ""
    # What the suite's scores cannot show (its methodology's known limitations), in English: shown on
    # its tab and under every printed result and ranking; a plugin's messages catalog translates them
    limitations: ClassVar[tuple[str, ...]] = ()
    # The suite score's key in the results files of the suite's own harness ("ewe_score"), when
    # it has one: those files are compared and exported (``--format SUITE``); None: it has none.
    reference_score_key: ClassVar[str | None] = None
    reference_version: ClassVar[str] = ""  # the harness version its files are written as

    # ------------------------------------------------------------------ declarations

    def weights(self) -> dict[str, float]:
        return {c.name: c.weight for c in self.categories}

    def category(self, name: str) -> SuiteCategory | None:
        return next((c for c in self.categories if c.name == name), None)

    def category_title(self, name: str) -> str:
        c = self.category(name)
        return c.title if c is not None else name.replace("_", " ").capitalize()

    def category_label(self, name: str) -> str:
        c = self.category(name)
        return c.label if c is not None else name[:6]

    def category_order(self) -> list[str]:
        return [c.name for c in self.categories]

    # ------------------------------------------------------------------ suite format

    @abstractmethod
    def check_test(self, raw: Any, *, category: str, file: str, line: int | None,
                   index: int) -> tuple[BenchTest | None, list[SuiteDefect]]:
        """Check one raw test of a category file: the test (None if unusable) and its defects."""

    # ------------------------------------------------------------------ scoring

    def prepare(self, card: LanguageCard | None = None) -> Any:
        """What :meth:`score_test` needs (word lists...), loaded once per scoring. Default: nothing.

        ``card`` is the language card the application looked up for :attr:`language` (a user card
        replaces the bundled one; None when there is none): the suite never looks cards up itself.
        """
        return None

    @abstractmethod
    def score_test(self, test: BenchTest, response: str, tool_calls: Sequence[Any] | None,
                   resources: Any) -> Explained:
        """Score one answered, scorable test: ``(score 0..1, explanation)``."""

    def describe_resources(self, resources: Any) -> dict[str, Any]:
        """The data files scoring used, with their sha256 (recorded with every result)."""
        return {}

    def normalisation(self, resources: Any) -> dict[str, Any]:
        """The text normalisation the methods apply (recorded with every result)."""
        return dict(NORMALISATION_POLICY)
