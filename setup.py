"""Package discovery for the wheel.

The bundled data folders ``language_cards/`` and ``resources/`` live at the repository root
(where linguists edit them) and are shipped inside the package as
``mteval_gui/language_cards`` and ``mteval_gui/resources``; ``mteval_gui.paths`` finds them
in either place.
"""

import os

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def data_packages(folder: str, package: str) -> list[str]:
    out = []
    root = os.path.join(HERE, folder)
    for dirpath, dirnames, _ in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))]
        rel = os.path.relpath(dirpath, root)
        out.append(package if rel == "." else package + "." + rel.replace(os.sep, "."))
    return out


packages = find_packages(include=["mteval_gui", "mteval_gui.*", "eval_standards", "eval_standards.*"])
packages += data_packages("language_cards", "mteval_gui.language_cards")
packages += data_packages("resources", "mteval_gui.resources")

setup(
    packages=packages,
    package_dir={
        "mteval_gui.language_cards": "language_cards",
        "mteval_gui.resources": "resources",
    },
)
