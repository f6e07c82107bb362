"""Shared helpers for review-pack tests: a small workspace, the pack's data, answers as the pack writes them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Reviewer
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.io.review_pack import ANSWERS_FORMAT, answers_hmac
from mteval_gui.store import Workspace, repo
from mteval_gui.store import judgments as J

ENTRIES = [
    ("d1-1", "I say so", "nititwân", "doc1"),
    ("d1-2", "you leave", "kisipwêhtân", "doc1"),
    ("d1-3", "as I am", "ê-ayâyân", "doc1"),
    ("d2-1", "he/she arrives", "takohtêw", "doc2"),
    ("x-1", "I sleep", "ninipân", None),
]
OUTPUTS = {"d1-1": "nititwân", "d1-2": "nisipwêhtânân", "d1-3": "ê-ayâyan", "d2-1": "", "x-1": "ᓂᓂᐹᐣ"}


def make_workspace(path: Path) -> Workspace:
    ws = Workspace(path)
    entries = [Entry(id=i, source=s, reference=r, metadata={"document": d} if d else {}) for i, s, r, d in ENTRIES]
    repo.add_corpus(ws, Corpus(corpus_id="c", language_pair=LanguagePair(source="eng", target="crk"), entries=entries))
    outputs = {k: Output(id=k, predicted=v) for k, v in OUTPUTS.items()}
    outputs["d2-1"] = Output(id="d2-1", predicted="", error="HTTP 503")
    repo.import_run(ws, Run(corpus_id="c", meta=RunMeta(run_id="sys1", model_slug="system-one"),
                        outputs=list(outputs.values())))
    J.add_reviewer(ws, Reviewer(reviewer_id="ana", name="Ana", languages=["crk"]))
    return ws


def pack_data(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="pack-data">(.*?)</script>', text, re.S).group(1)
    return json.loads(blob)


def answers_doc(data: dict[str, Any], answers: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": ANSWERS_FORMAT, "pack_id": data["pack_id"], "pack_sha256": data["content_sha256"],
            "reviewer_id": data["reviewer"]["reviewer_id"], "task": data["task"],
            "exported_at": "2025-01-01T00:00:00.000+00:00", "answers": answers,
            "answers_hmac": answers_hmac(data["answers_key"], answers)}


def answer(id_: int, item: int, version: int = 1, superseded_by: int | None = None, **kw: Any) -> dict[str, Any]:
    row = {"id": id_, "item": item, "version": version, "created_at": f"2025-01-01T00:00:0{id_}.000+00:00",
           "adequacy": None, "fluency": None, "note": None, "flagged": False, "payload": {},
           "superseded_by": superseded_by, "undone": False}
    row.update(kw)
    return row
