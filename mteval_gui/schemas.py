"""JSON Schemas of the files the application reads and writes, generated from its models.

The shipped files in ``resources/schemas`` are the output of :func:`write_schemas`; a test
asserts they are up to date. Regenerate with ``python -m mteval_gui.schemas``.

- ``runcard.json``: a run card as written (serialisation form of ``RunCard``);
- ``language_card.json``: a language card file (``language_cards/<code>.json``, JSON aliases);
- ``corpus.json``: a corpus document (JSON import format);
- ``run.json``: a run document (metadata and outputs).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from mteval_gui.domain.card import LanguageCard
from mteval_gui.domain.corpus import Corpus
from mteval_gui.domain.run import Run
from mteval_gui.domain.runcard import RunCard

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# file name -> (model, mode, title)
SCHEMAS: dict[str, tuple[type[BaseModel], str, str]] = {
    "runcard.json": (RunCard, "serialization", "mteval-gui run card"),
    "language_card.json": (LanguageCard, "validation", "mteval-gui language card"),
    "corpus.json": (Corpus, "validation", "mteval-gui corpus"),
    "run.json": (Run, "validation", "mteval-gui run"),
}


def schema_of(name: str) -> dict[str, Any]:
    model, mode, title = SCHEMAS[name]
    schema = model.model_json_schema(mode=mode, by_alias=True)  # type: ignore[arg-type]
    return {"$schema": DRAFT, "$id": f"https://mteval-gui.invalid/schemas/{name}", **schema, "title": title}


def render(name: str) -> str:
    return json.dumps(schema_of(name), ensure_ascii=False, indent=2) + "\n"


def write_schemas(directory: str | Path | None = None) -> list[Path]:
    """Write every schema file into ``directory`` (default: the shipped schemas folder)."""
    if directory is None:
        from mteval_gui.paths import schemas_dir

        directory = schemas_dir()
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        p = d / name
        p.write_text(render(name), encoding="utf-8")
        written.append(p)
    return written


if __name__ == "__main__":  # pragma: no cover
    for p in write_schemas(sys.argv[1] if len(sys.argv) > 1 else None):
        print(p)
