"""The one error hierarchy of the application.

The CLI prints these and exits non-zero; the GUI shows them through one dialog helper.
"""

from __future__ import annotations

from dataclasses import dataclass


class MtevalError(Exception):
    """Base class of every error the application reports to a user."""


@dataclass(frozen=True)
class Defect:
    """One problem found in an input file, located as precisely as possible."""

    file: str
    line: int | None
    message: str
    column: int | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


class InputError(MtevalError):
    """An input file is malformed. Carries every defect found, not just the first."""

    def __init__(self, defects: list[Defect] | Defect | str, *, file: str | None = None):
        if isinstance(defects, str):
            defects = [Defect(file or "<input>", None, defects)]
        elif isinstance(defects, Defect):
            defects = [defects]
        self.defects: list[Defect] = list(defects)
        super().__init__("\n".join(str(d) for d in self.defects))

    @property
    def file(self) -> str | None:
        return self.defects[0].file if self.defects else None

    @property
    def line(self) -> int | None:
        return self.defects[0].line if self.defects else None

    @property
    def column(self) -> int | None:
        return self.defects[0].column if self.defects else None


class CardError(MtevalError):
    """A language card is invalid or missing."""

    def __init__(self, message: str, *, card: str | None = None, problems: list[str] | None = None):
        self.card = card
        self.problems = list(problems or [message])
        prefix = f"{card}: " if card else ""
        super().__init__(prefix + "\n".join(self.problems) if problems else prefix + message)


class PluginError(MtevalError):
    """A metric plugin could not be resolved, prepared or run."""

    def __init__(self, metric_id: str, message: str):
        self.metric_id = metric_id
        super().__init__(f"metric {metric_id}: {message}")


class StoreError(MtevalError):
    """The workspace database cannot be opened, migrated or written."""


class Cancelled(MtevalError):
    """Work stopped because the user asked (the one cancellation type of the application).

    Scoring raises it between two batches: committed batches are kept and a rerun resumes.
    """


class DependencyMissing(MtevalError):
    """An optional dependency (extra) or resource is not installed.

    ``hint`` is the exact command or action that fixes it.
    """

    def __init__(self, what: str, hint: str):
        self.what = what
        self.hint = hint
        super().__init__(f"{what} is not available: {hint}")
