"""Time the COMET path of ``core.comet`` on a tiny locally built model (no network).

Measures: importing COMET, loading the checkpoint, and predicting N segments through
COMET's ``predict`` (CPU). The model is the two-layer test model of
``tests/scoring/tiny_comet.py``, so the numbers measure the pipeline's overhead, not the
cost of a real XLM-R large encoder.

    python perf/comet_tiny.py [N]
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def main(n: int = 200) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from mteval_gui.domain.corpus import Entry
    from mteval_gui.domain.run import Output
    from mteval_gui.scoring.metrics import comet as cm
    from mteval_gui.scoring.plugins import EntryInput, ScoringContext
    from tests.scoring.tiny_comet import build_tiny_comet, training_sentences

    t = time.perf_counter()
    cm.import_comet()
    t_import = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        built = build_tiny_comet(Path(tmp))
        t_build = time.perf_counter() - t
        sents = training_sentences(n + 1, seed=11)
        items = [EntryInput(i, Entry(id=str(i), source=sents[i], reference=sents[i]),
                            Output(id=str(i), predicted=sents[i + 1])) for i in range(n)]
        ctx = ScoringContext("eng", "xxx", options={"comet_model": str(built.folder)})
        metric = cm.CometMetric()
        t = time.perf_counter()
        metric.prepare(ctx)
        t_load = time.perf_counter() - t
        t = time.perf_counter()
        scores = metric.score_entries(items)
        t_predict = time.perf_counter() - t
        metric.aggregate(scores, ctx)
    print(f"import comet+torch: {t_import:.2f} s")
    print(f"build tiny model:   {t_build:.2f} s")
    print(f"load checkpoint:    {t_load:.3f} s")
    print(f"predict {n} segs:   {t_predict:.3f} s ({n / t_predict:.0f} segments/s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
