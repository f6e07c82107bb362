"""LLM benchmark suites: suite, responses and results, whatever the suite. Models only, no I/O.

A suite plugin (:class:`mteval_gui.benchmarks.suite.BenchmarkSuite`) reads its tests into a
:class:`Suite` whose tests are :class:`BenchTest` objects (a suite adds its own expectation
fields in a subclass); the framework scores them against :class:`Responses` into a
:class:`BenchmarkResult`: every test's score and explanation, one :class:`CategoryResult` per
category and the suite's weighted score (``score``, shown under the suite's ``score_name``,
e.g. "ÈwéScore").

Suite defects never stop scoring. Each is one :class:`SuiteDefect` with a severity:

- ``error``: the test cannot be scored (no ``id``, an unknown method, a missing expectation,
  no criterion that can be checked, a repeated ``id``...). It is listed and left out of its
  category's mean.
- ``warning``: part of the test is not scored, or a file is not a category of the suite.
- ``info``: a field the test's method does not use.

Status of a test in a result: ``scored``; ``error`` (the provider returned an error: 0, never
scored as text); ``missing`` (no response although its category was run: 0); ``unscorable``
(suite defect of severity ``error``: no score, left out of the category's mean); ``not_run`` (its
category has no response at all: the category is inactive and leaves the suite score).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, SerializeAsAny

from mteval_gui.domain.base import DomainModel

RESULT_FORMAT_VERSION = 2
PASS_THRESHOLD = 0.7

Severity = Literal["error", "warning", "info"]
TestStatus = Literal["scored", "error", "missing", "unscorable", "not_run"]


class _Model(DomainModel):
    model_config = ConfigDict(extra="forbid")


class SuiteDefect(_Model):
    """A problem of the suite (or of a responses file), located by file, line and test id."""

    file: str
    line: int | None = None
    test_id: str | None = None
    kind: str
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        who = f"{self.test_id}: " if self.test_id else ""
        return f"{where}: {who}{self.message}"


class BenchTest(_Model):
    """One test of a suite, as checked (values NFC as written in the file).

    Suites subclass it with the expectation fields their methods read.
    """

    id: str
    category: str
    method: str | None = None
    prompt: str | None = None
    messages: list[dict[str, Any]] | None = None
    description: str | None = None
    file: str = ""
    line: int | None = None
    index: int = 0
    unscorable: str | None = None  # why the test cannot be scored (its error defects), else None
    extra: dict[str, Any] = Field(default_factory=dict)

    @property
    def display_prompt(self) -> str:
        """The prompt as a reviewer reads it (a conversation as ``[role] content`` lines)."""
        if self.prompt is not None:
            return self.prompt
        if self.messages:
            return "\n".join(f"[{m.get('role', '?')}] {m.get('content', '')}" for m in self.messages)
        return ""


class Suite(_Model):
    suite: str = ""  # name of the suite definition that read it ("ewebench")
    path: str
    sha256: str
    tests: list[SerializeAsAny[BenchTest]] = Field(default_factory=list)
    defects: list[SuiteDefect] = Field(default_factory=list)
    files: dict[str, str] = Field(default_factory=dict)  # category -> file name
    category_order: list[str] = Field(default_factory=list)  # the suite's own categories, by weight

    @property
    def categories(self) -> list[str]:
        """Categories of the suite: the known ones in weight order, then others by name."""
        present = {t.category for t in self.tests} | set(self.files)
        known = [c for c in self.category_order if c in present]
        return known + sorted(present - set(self.category_order))

    def tests_of(self, category: str) -> list[BenchTest]:
        return [t for t in self.tests if t.category == category]

    def test(self, test_id: str) -> BenchTest | None:
        for t in self.tests:
            if t.id == test_id:
                return t
        return None

    def errors(self) -> list[SuiteDefect]:
        return [d for d in self.defects if d.severity == "error"]


class ResponseRecord(_Model):
    """A model's answer to one test: a response text (and tool calls) or a provider error."""

    test_id: str
    response: str | None = None
    error: str | None = None
    tool_calls: list[Any] | None = None
    file: str = ""
    line: int | None = None


class Responses(_Model):
    path: str | None = None
    sha256: str | None = None
    model: str | None = None  # from the file's metadata, if any
    records: dict[str, ResponseRecord] = Field(default_factory=dict)
    warnings: list[SuiteDefect] = Field(default_factory=list)


class BenchTestResult(_Model):
    test_id: str
    category: str
    method: str | None = None
    status: TestStatus
    score: float | None = None  # 0..1; None when not_run
    passed: bool | None = None
    prompt: str = ""
    response: str | None = None
    error: str | None = None
    explanation: dict[str, Any] = Field(default_factory=dict)


class CategoryResult(_Model):
    category: str
    title: str
    weight: float
    active: bool
    score: float | None = None  # mean score x 100 over the tests that can be scored; None when inactive or none can
    passed: int = 0
    total: int = 0
    answered: int = 0  # tests with a response or a provider error
    missing: int = 0
    errors: int = 0
    unscorable: int = 0


class BenchmarkResult(_Model):
    benchmark: str  # the suite's title ("ÈwéBench")
    suite: str  # the suite's name ("ewebench")
    score_name: str = "score"  # what the suite calls its score ("ÈwéScore")
    format_version: int = RESULT_FORMAT_VERSION
    model: str
    suite_path: str
    suite_sha256: str
    responses_path: str | None = None
    responses_sha256: str | None = None
    created_at: str
    pass_threshold: float = PASS_THRESHOLD
    score: float | None = None  # 0..100; None when no category is active
    active_weight: float = 0.0
    categories: list[CategoryResult] = Field(default_factory=list)
    tests: list[BenchTestResult] = Field(default_factory=list)
    suite_defects: list[SuiteDefect] = Field(default_factory=list)
    response_warnings: list[SuiteDefect] = Field(default_factory=list)
    normalisation: dict[str, Any] = Field(default_factory=dict)
    resources: dict[str, Any] = Field(default_factory=dict)  # the suite's data files (word lists) with sha256

    def category(self, name: str) -> CategoryResult | None:
        for c in self.categories:
            if c.category == name:
                return c
        return None

    def result(self, test_id: str) -> BenchTestResult | None:
        for t in self.tests:
            if t.test_id == test_id:
                return t
        return None

    @property
    def provider_errors(self) -> list[BenchTestResult]:
        return [t for t in self.tests if t.status == "error"]

    @property
    def missing(self) -> list[BenchTestResult]:
        return [t for t in self.tests if t.status == "missing"]

    @property
    def unscorable(self) -> list[BenchTestResult]:
        return [t for t in self.tests if t.status == "unscorable"]

    @property
    def passed(self) -> int:
        return sum(c.passed for c in self.categories if c.active)

    @property
    def total(self) -> int:
        return sum(c.total for c in self.categories if c.active)
