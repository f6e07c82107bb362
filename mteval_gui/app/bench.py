"""LLM benchmark suites: find the installed suites, read a suite and a model's responses, score, store, export.

Suites come from plugin packages (entry-point group ``mteval_gui.standards``; ÈwéBench is the
bundled one). :func:`suite_infos` lists them from their declarations (nothing imported);
:func:`open_suite` imports one and gives a :class:`SuiteHandle` whose methods read its folders
and score them. Results, storage and exports are the same for every suite: the result names
its suite. The CLI (``mteval bench SUITE …``, alias ``mteval SUITE …``) and the GUI's
benchmark tabs go through these functions.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from mteval_gui.benchmarks.scoring import Ranking
from mteval_gui.benchmarks.scoring import rank_results as _rank_results
from mteval_gui.benchmarks.scoring import score_suite as _score_suite
from mteval_gui.benchmarks.scoring import score_test as _score_test
from mteval_gui.benchmarks.suite import BenchmarkSuite, SuiteCategory
from mteval_gui.domain.benchmark import (
    BenchmarkResult,
    BenchTest,
    BenchTestResult,
    ResponseRecord,
    Responses,
    Suite,
    SuiteDefect,
)
from mteval_gui.errors import MtevalError
from mteval_gui.io.benchmark import read_responses
from mteval_gui.io.benchmark import read_suite as _read_suite
from mteval_gui.io.benchmark_export import read_result_json as _read_result_json
from mteval_gui.io.benchmark_export import (
    write_categories_csv,
    write_ranking_csv,
    write_result_json,
    write_results_csv,
)
from mteval_gui.io.benchmark_export import write_reference_json as _write_reference_json
from mteval_gui.io.benchmark_reference import ReferenceFormat
from mteval_gui.io.benchmark_reference import reference_file_name as _reference_file_name
from mteval_gui.standards import installed_plugins
from mteval_gui.store.benchmarks import (
    BenchmarkRunNotFound,
    BenchmarkRunSummary,
    RatingMeans,
    ResponseRating,
    delete_benchmark_run,
    rate_response,
    response_rating,
)
from mteval_gui.store.benchmarks import get_benchmark_run as _get_benchmark_run
from mteval_gui.store.benchmarks import list_benchmark_runs as _list_benchmark_runs
from mteval_gui.store.benchmarks import response_rating_means as _response_rating_means
from mteval_gui.store.benchmarks import save_benchmark_run as _save_benchmark_run
from mteval_gui.store.db import Workspace

__all__ = [
    "BenchTest", "BenchTestResult", "BenchmarkResult", "BenchmarkRunNotFound", "BenchmarkRunSummary",
    "BenchmarkSuite", "Ranking", "ResponseRecord", "Responses", "Suite", "SuiteCategory", "SuiteDefect",
    "SuiteError", "SuiteHandle", "SuiteInfo", "delete_benchmark_run", "get_benchmark_run", "list_benchmark_runs",
    "open_suite", "rank_results", "read_responses", "read_result_json", "reference_file_name",
    "reference_format", "save_benchmark_run", "score_suite", "suite_infos", "write_categories_csv",
    "write_ranking_csv", "write_reference_json", "write_result_json", "write_results_csv",
    "RatingMeans", "ResponseRating", "rate_response", "response_rating", "response_rating_means",
]


class SuiteError(MtevalError):
    """A benchmark suite is not installed or cannot be loaded."""


@dataclass(frozen=True)
class SuiteInfo:
    """An installed suite as its plugin declares it (nothing imported)."""

    name: str
    title: str
    plugin: str
    python_name: str
    description: str = ""


def suite_infos() -> list[SuiteInfo]:
    """Every installed suite, in plugin order."""
    return [SuiteInfo(d.name, d.title, p.name, d.python_name, d.description)
            for p, d in installed_plugins().suites().values()]


@dataclass(frozen=True)
class SuiteHandle:
    """One installed suite, ready to read and score."""

    info: SuiteInfo
    definition: BenchmarkSuite

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def title(self) -> str:
        return self.definition.title

    @property
    def score_name(self) -> str:
        return self.definition.score_name

    def read_suite(self, folder: str | Path) -> Suite:
        return _read_suite(folder, self.definition)

    def read_responses(self, path: str | Path, suite: Suite | None = None) -> Responses:
        return read_responses(path, suite)

    def prepare(self) -> Any:
        """The suite's scoring resources, prepared with the card the application uses for its language."""
        from mteval_gui.cards import try_load_card

        return self.definition.prepare(try_load_card(self.definition.language))

    def score_suite(self, suite: Suite, responses: Responses, *, model: str | None = None,
                    weights: Mapping[str, float] | None = None, resources: Any = None,
                    created_at: str | None = None) -> BenchmarkResult:
        return _score_suite(self.definition, suite, responses, model=model, weights=weights,
                            resources=resources if resources is not None else self.prepare(), created_at=created_at)

    def score_test(self, test: BenchTest, record: ResponseRecord | None, *, category_active: bool = True,
                   resources: Any = None) -> BenchTestResult:
        return _score_test(self.definition, test, record, category_active=category_active,
                           resources=resources if resources is not None else self.prepare())

    def rank_results(self, results: Sequence[BenchmarkResult]) -> Ranking:
        return _rank_results(results, self.definition)

    def list_runs(self, ws: Workspace) -> list[BenchmarkRunSummary]:
        return list_benchmark_runs(ws, suite=self.name)

    @property
    def reference_format(self) -> ReferenceFormat | None:
        """The results format of the suite's own harness (ÈwéBench: EweBench's files), if it has one."""
        return reference_format(self.definition)


def reference_format(definition: BenchmarkSuite) -> ReferenceFormat | None:
    key = definition.reference_score_key
    if not key:
        return None
    return ReferenceFormat(suite=definition.name, title=definition.title, score_name=definition.score_name,
                           score_key=key, version=definition.reference_version,
                           categories={c.name: (c.title, c.weight) for c in definition.categories},
                           pass_threshold=definition.pass_threshold)


def _reference_formats() -> list[ReferenceFormat]:
    out = []
    for info in suite_infos():
        try:
            fmt = reference_format(open_suite(info.name).definition)
        except SuiteError:
            continue
        if fmt is not None:
            out.append(fmt)
    return out


@cache
def _load(name: str) -> SuiteHandle:
    info = next((s for s in suite_infos() if s.name == name), None)
    if info is None:
        known = ", ".join(s.name for s in suite_infos()) or "none"
        raise SuiteError(f"no installed benchmark suite {name!r} (installed: {known}; `mteval plugins` lists them)")
    module_name, _, attr = info.python_name.partition(":")
    try:
        obj = getattr(importlib.import_module(module_name), attr)
    except Exception as exc:  # noqa: BLE001 - a broken suite plugin is reported, never raised raw
        raise SuiteError(f"suite {name} of plugin {info.plugin}: cannot load {info.python_name}: "
                         f"{type(exc).__name__}: {exc}") from exc
    except KeyboardInterrupt:
        raise  # the user's Ctrl-C (a third-party suite raising it at import was refused by its check)
    except BaseException as exc:  # noqa: BLE001 - SystemExit from a suite's import ends only the suite
        raise SuiteError(f"suite {name} of plugin {info.plugin}: cannot load {info.python_name}: "
                         f"raised {exc!r}") from exc
    if not isinstance(obj, BenchmarkSuite):
        raise SuiteError(f"suite {name} of plugin {info.plugin}: {info.python_name} is a {type(obj).__name__}, "
                         "not a BenchmarkSuite")
    if obj.name != name:
        raise SuiteError(f"suite {name} of plugin {info.plugin}: {info.python_name} is named {obj.name!r}")
    return SuiteHandle(info, obj)


def open_suite(name: str) -> SuiteHandle:
    """The installed suite ``name`` (:class:`SuiteError` when it is not installed or cannot be loaded)."""
    return _load(name)


def _titles() -> dict[str, tuple[str, str]]:
    """Title -> (name, score name) of every installed suite that loads (to read data stored by title only)."""
    out: dict[str, tuple[str, str]] = {}
    for info in suite_infos():
        try:
            h = open_suite(info.name)
        except SuiteError:
            continue
        out.setdefault(h.title, (h.name, h.score_name))
    return out


def _definition(name: str) -> BenchmarkSuite | None:
    try:
        return open_suite(name).definition
    except SuiteError:
        return None


def score_suite(suite: Suite, responses: Responses, *, model: str | None = None,
                weights: Mapping[str, float] | None = None, created_at: str | None = None) -> BenchmarkResult:
    """Score ``suite`` (read by :meth:`SuiteHandle.read_suite`, which names its suite)."""
    return open_suite(suite.suite).score_suite(suite, responses, model=model, weights=weights, created_at=created_at)


def rank_results(results: Sequence[BenchmarkResult]) -> Ranking:
    """Rank results (of one suite: its category order; of several: flagged ``suite_differs``)."""
    names = {r.suite for r in results}
    definition = _definition(next(iter(names))) if len(names) == 1 else None
    return _rank_results(results, definition)


def read_result_json(path: str | Path) -> BenchmarkResult:
    """A results file of ``mteval bench SUITE score -o``, or of a suite's own harness (EweBench's)."""
    return _read_result_json(path, _titles(), references=_reference_formats())


def write_reference_json(result: BenchmarkResult, path: str | Path, *, inputs: Sequence[str | Path] = ()) -> None:
    """``result`` in its suite's own harness format (SuiteError if the suite has none)."""
    definition = _definition(result.suite)
    fmt = reference_format(definition) if definition is not None else None
    if fmt is None:
        raise SuiteError(f"suite {result.suite!r} has no reference results format")
    _write_reference_json(result, fmt, path, inputs=inputs)


def reference_file_name(result: BenchmarkResult) -> str:
    """The file name the suite's own harness gives a result (its leaderboard lists ``<suite>_*.json``)."""
    return _reference_file_name(result.suite, result.model)


def _prefix(result: BenchmarkResult) -> str:
    definition = _definition(result.suite) if result.suite else None
    return definition.run_id_prefix if definition is not None else "bench"


def save_benchmark_run(ws: Workspace, result: BenchmarkResult) -> str:
    """Store ``result`` (its id is ``<suite prefix>-<hash>``; the same scoring again replaces it)."""
    return _save_benchmark_run(ws, result, prefix=_prefix(result))


def get_benchmark_run(ws: Workspace, bench_run_id: str) -> BenchmarkResult:
    return _get_benchmark_run(ws, bench_run_id, _titles())


def list_benchmark_runs(ws: Workspace, suite: str | None = None) -> list[BenchmarkRunSummary]:
    return _list_benchmark_runs(ws, suite=suite, suites=_titles())


def response_rating_means(ws: Workspace, bench_run_ids: Sequence[str]) -> dict[str, RatingMeans]:
    """Speakers' mean adequacy and fluency of each stored run's responses (task A on LLM responses)."""
    return {run_id: _response_rating_means(ws, run_id) for run_id in bench_run_ids}

