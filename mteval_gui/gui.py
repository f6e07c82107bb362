"""``mteval-gui`` entry point: creates the QApplication; Qt is imported only here, lazily.

Before Qt starts, the system libraries of its X11 window plugin are checked: Qt aborts the
process when the plugin cannot load, with a message that names a plugin, not the missing
library; this prints the missing libraries and the one ``apt-get install`` line instead.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from mteval_gui.app.startup import qt_platform_problem

    problem = qt_platform_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 1
    from mteval_gui.qt.main import run

    return run(list(sys.argv if argv is None else argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
