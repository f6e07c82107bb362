"""Speed of Cree in two scripts and of the generator's suggestions, on the verb-form corpus.

- ``transliterate``: SRO -> syllabics -> SRO with the crk card's table, words per second;
- ``fst SRO`` / ``fst syllabics``: ``core.fst`` on the oracle run as written and written in
  syllabics (each word looked up through its transliteration), words per second, warm
  analyzer (the cost of the transliteration itself);
- ``suggestions``: the generator's forms for every output of the ``wrong-person`` run
  (:func:`mteval_gui.app.generator.entry_suggestions`), entries per second (cold, then warm
  generator caches).

Usage: ``python perf/bench_scripts.py [--shared ../shared/data] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mteval_gui.app.generator import entry_suggestions  # noqa: E402
from mteval_gui.cards import load_card  # noqa: E402
from mteval_gui.domain.corpus import Entry  # noqa: E402
from mteval_gui.domain.run import Output  # noqa: E402
from mteval_gui.domain.transliteration import Scripts  # noqa: E402
from mteval_gui.fst import Analyzer  # noqa: E402
from mteval_gui.scoring.metrics.structural import FstAcceptanceMetric  # noqa: E402
from mteval_gui.scoring.plugins import EntryInput, ScoringContext  # noqa: E402


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=str(REPO.parent / "shared" / "data"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    data = Path(args.shared)
    base = data / "crk" / "verbforms"
    fst = data / "crk" / "fst"
    card = load_card("crk")
    scripts = Scripts.of(card)
    table = scripts.tables[0]
    entries = [Entry(**json.loads(x)) for x in (base / "corpus.jsonl").read_text("utf-8").splitlines() if x]
    words = [w for e in entries for w in (e.reference or "").split()]

    t = best(lambda: [table.backward(table.forward(w)) for w in words], args.repeat)
    print(f"transliterate   {len(words) / t:12,.0f} words/s (SRO -> syllabics -> SRO, {len(words)} words)")

    strict = Analyzer.load(fst / "crk-strict-analyzer-for-dictionary.hfstol")
    for label, convert in (("fst SRO", lambda s: s), ("fst syllabics", lambda s: scripts.to_script(s, "Cans"))):
        items = [EntryInput(i, e, Output(id=e.id, predicted=convert(e.reference or "") or ""))
                 for i, e in enumerate(entries)]
        ctx = ScoringContext("eng", "crk", target_card=card, shared={"fst.strict": strict})
        m = FstAcceptanceMetric()
        m.prepare(ctx)
        m.score_entries(items)  # warm the analyzer's caches
        t = best(lambda m=m, items=items: m.score_entries(items), args.repeat)
        n = sum(len(it.predicted.split()) for it in items)
        print(f"{label:15} {n / t:12,.0f} words/s (warm analyzer)")

    generator_path = fst / "crk-strict-generator.hfstol"
    lines = (base / "runs" / "wrong-person.jsonl").read_text("utf-8").splitlines()[1:]
    outputs = {o["id"]: o["predicted"] for o in map(json.loads, lines)}
    by_id = {e.id: e for e in entries}
    generator = Analyzer.load(generator_path)

    def suggest() -> None:
        for i, p in outputs.items():
            entry_suggestions(by_id[i], p, strict, generator, card)

    t0 = time.perf_counter()
    suggest()
    cold = time.perf_counter() - t0
    warm = best(suggest, args.repeat)
    print(f"suggestions     {len(outputs) / cold:12,.0f} entries/s cold, {len(outputs) / warm:,.0f} warm "
          f"({len(outputs)} wrong-person outputs)")
    print(f"(best of {args.repeat}; python {sys.version.split()[0]}, backend {strict.backend} "
          f"{strict.backend_version})")


if __name__ == "__main__":
    main()
