"""Full scoring speed: the fr→ewe MAFAND systems (1,563 entries each) through ``score_run``.

Every built-in metric that applies to Ewe runs (heavy model-based ones excluded, as by
default), with bootstrap intervals (B = 1000) and the run card. Prints entries/s per
system and overall, and with ``--per-metric`` the time of each metric's scoring pass.

Usage: ``python perf/bench_scoring.py [--data ../shared/data] [--systems N] [--per-metric]``
"""

from __future__ import annotations

import argparse
import time
import unicodedata
from pathlib import Path

from mteval_gui.cards import try_load_card
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.errors import MtevalError
from mteval_gui.scoring.plugins import EntryInput, ScoringContext, instantiate, metrics_for
from mteval_gui.scoring.runner import ScoringRequest, score_run


def _lines(p: Path) -> list[str]:
    t = p.read_text(encoding="utf-8")
    return (t[:-1] if t.endswith("\n") else t).split("\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--systems", type=int, default=0, help="only the first N systems (default: all)")
    ap.add_argument("--per-metric", action="store_true", help="also time each metric's scoring pass on one system")
    ap.add_argument("--exclude", nargs="*", default=[], help="metric ids to leave out (e.g. core.ter)")
    args = ap.parse_args()
    folder = args.data / "ewe" / "mafand-fr-ewe"
    nfc = lambda s: unicodedata.normalize("NFC", s)  # noqa: E731
    src = [nfc(x) for x in _lines(folder / "test.fr")]
    ref = [nfc(x) for x in _lines(folder / "test.ewe")]
    corpus = Corpus(
        corpus_id="mafand-fr-ewe",
        language_pair=LanguagePair(source="fra", target="ewe"),
        entries=[Entry(id=str(i + 1), source=s, reference=r) for i, (s, r) in enumerate(zip(src, ref, strict=True))],
    )
    card, source_card = try_load_card("ewe"), try_load_card("fra")
    systems = sorted(p.stem for p in (folder / "predictions").glob("*_fr_ewe_*.txt"))
    if args.systems:
        systems = systems[:args.systems]
    total_entries, total_time = 0, 0.0
    for name in systems:
        hyps = _lines(folder / "predictions" / f"{name}.txt")
        run = Run(meta=RunMeta(run_id=name), corpus_id=corpus.corpus_id,
                  outputs=[Output(id=str(i + 1), predicted=nfc(h)) for i, h in enumerate(hyps)])
        req = ScoringRequest(run_id=name, corpus=corpus, run=run, target_card=card, source_card=source_card,
                             exclude=tuple(args.exclude))
        t = time.perf_counter()
        res = score_run(req)
        dt = time.perf_counter() - t
        total_entries += len(corpus.entries)
        total_time += dt
        ok = sorted(k for k, v in res.availability.items() if "." in k and v == "ok")
        print(f"{name:<36} {dt:6.2f} s  {len(corpus.entries) / dt:7.0f} entries/s  "
              f"chrF++ {res.run_card.scores.chrf_plus_plus:.2f}  metrics ok: {len(ok)}")
    print(f"\n{len(systems)} systems, {total_entries} entries in {total_time:.1f} s: "
          f"{total_entries / total_time:.0f} entries/s overall")
    if args.per_metric:
        hyps = _lines(folder / "predictions" / f"{systems[0]}.txt")
        items = [
            EntryInput(i, e, Output(id=e.id, predicted=nfc(h)))
            for i, (e, h) in enumerate(zip(corpus.entries, hyps, strict=True))
        ]
        ctx = ScoringContext(source_lang="fra", target_lang="ewe", target_card=card, source_card=source_card)
        print(f"\nper metric on {systems[0]}:")
        for ref_ in metrics_for(card, exclude=args.exclude):
            try:
                m = instantiate(ref_)
                if m.info.heavy:
                    continue
                m.prepare(ctx)
            except (MtevalError, ImportError, OSError) as exc:  # metrics that cannot run here are listed, not timed
                print(f"  {ref_.id:<24} not run ({type(exc).__name__}: {str(exc)[:60]})")
                continue
            t = time.perf_counter()
            for k in range(0, len(items), 50):
                m.score_entries(items[k:k + 50])
            dt = time.perf_counter() - t
            print(f"  {ref_.id:<24} {dt:6.2f} s  {len(items) / dt:8.0f} entries/s")


if __name__ == "__main__":
    main()
