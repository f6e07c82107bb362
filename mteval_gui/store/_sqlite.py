"""``sqlite_utils``, imported without pandas.

sqlite_utils imports pandas when it is installed (over a second on a loaded machine) only to
give ``pandas.Timestamp`` values a column type; the store never passes pandas values. A
process that has already imported pandas keeps it and sqlite_utils sees it as usual.
"""

from __future__ import annotations

import sys

if "sqlite_utils" not in sys.modules and "pandas" not in sys.modules:
    sys.modules["pandas"] = None  # type: ignore[assignment]  # `import pandas` raises ImportError
    try:
        import sqlite_utils
    finally:
        del sys.modules["pandas"]
else:
    import sqlite_utils

__all__ = ["sqlite_utils"]
