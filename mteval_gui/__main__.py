"""``python -m mteval_gui`` runs the ``mteval`` command line."""

import sys

from mteval_gui.cli import main

if __name__ == "__main__":
    sys.exit(main())
