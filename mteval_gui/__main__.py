"""``python -m mteval_gui`` runs the ``mteval`` command line."""

from mteval_gui.cli import run

if __name__ == "__main__":
    run()
