"""``mteval-gui`` entry point: creates the QApplication; Qt is imported only here, lazily."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from mteval_gui.qt.main import run

    return run(list(sys.argv if argv is None else argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
