"""Speed of ÈwéBench scoring and of the Ewe quality heuristic on real data.

- ``suite``: read and check the real suite (``data/ewebench/tests``, 107 tests);
- ``score``: score all 107 tests against varied responses (texts, errors, calls, markdown);
- ``store``: save the result in a fresh workspace and read it back;
- ``quality``: the Ewe quality heuristic over the 1,563 Ewe reference lines of MAFAND-MT.

Usage: ``python perf/bench_ewebench.py [--shared ../shared/data] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from eval_standards.ewe.quality import ewe_quality  # noqa: E402
from mteval_gui.app.bench import get_benchmark_run, open_suite, save_benchmark_run, score_suite  # noqa: E402
from mteval_gui.app.workspace import Workspace  # noqa: E402
from mteval_gui.domain.benchmark import ResponseRecord, Responses  # noqa: E402

read_suite = open_suite("ewebench").read_suite

TEXTS = [
    "Ŋdi na wò! Mele nyuie. Ame siwo le afi sia nye Kofi kple Ama.",
    "Bonjour, je suis un assistant et je vais vous aider avec les questions dans cette langue.",
    '<function_call>{"name": "get_weather", "arguments": {"city": "Lomé"}}</function_call>',
    "| Ŋkɔ | Ƒe |\n|---|---|\n| Kofi | 25 |\n\n**Akpe**\n\n1. nyo\n2. vɔ̃",
    "B",
]


def timed(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(REPO.parent / "shared" / "data"))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    data = Path(args.shared)
    suite_dir = data / "ewebench" / "tests"

    t_suite, suite = timed(lambda: read_suite(suite_dir), args.repeat)
    records = {}
    for i, t in enumerate(suite.tests):
        if i % 9 == 4:
            records[t.id] = ResponseRecord(test_id=t.id, error="HTTP 500")
        else:
            records[t.id] = ResponseRecord(test_id=t.id, response=TEXTS[i % len(TEXTS)])
    responses = Responses(path="bench", sha256="bench", records=records)
    score_suite(suite, responses, model="warm-up")
    t_score, result = timed(lambda: score_suite(suite, responses, model="bench"), args.repeat)

    with tempfile.TemporaryDirectory() as d:
        ws = Workspace(Path(d) / "ws.sqlite")
        t_save, run_id = timed(lambda: save_benchmark_run(ws, result), args.repeat)
        t_load, _ = timed(lambda: get_benchmark_run(ws, run_id), args.repeat)
        ws.close()

    lines = (data / "ewe" / "mafand-fr-ewe" / "test.ewe").read_text(encoding="utf-8").splitlines()
    t_quality, _ = timed(lambda: [ewe_quality(s) for s in lines], args.repeat)

    n = len(suite.tests)
    print(f"read+check suite ({n} tests):      {1000 * t_suite:8.1f} ms")
    print(f"score {n} tests:                   {1000 * t_score:8.1f} ms  ({n / t_score:,.0f} tests/s)")
    print(f"store result / read it back:       {1000 * t_save:8.1f} ms / {1000 * t_load:.1f} ms")
    print(
        f"Ewe quality, {len(lines)} lines:         {1000 * t_quality:8.1f} ms  ({len(lines) / t_quality:,.0f} lines/s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
