"""Wrong-language detection on MAFAND-MT: every system output scored against the fr→ewe corpus.

Usage: python perf/measure_language_id.py [SHARED_DATA_DIR]

The 16 fr→ewe outputs are Ewe; the 16 ewe→fr outputs are French, i.e. wrong-language outputs
when scored against the fr→ewe corpus. For each system prints the share of entries judged
wholly in another language, code_switching_rate, whether the run gets the caveat
``wrong_language_output``, how many entries needed the detector, and the CPU time of the
metric (the first system also pays for loading the detector).
"""

from __future__ import annotations

import sys
import time
import unicodedata
from pathlib import Path

from mteval_gui.cards import try_load_card
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring.runner import ScoringRequest, score_run


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = text[:-1] if text.endswith("\n") else text
    return [unicodedata.normalize("NFC", line) for line in text.split("\n")]


def main() -> None:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared" / "data"
    mafand = shared / "ewe" / "mafand-fr-ewe"
    fr, ewe = _lines(mafand / "test.fr"), _lines(mafand / "test.ewe")
    entries = [Entry(id=str(i), source=s, reference=r) for i, (s, r) in enumerate(zip(fr, ewe, strict=True), 1)]
    corpus = Corpus(corpus_id="mafand-fr-ewe", language_pair=LanguagePair(source="fra", target="ewe"), entries=entries)
    tcard, scard = try_load_card("ewe"), try_load_card("fra")
    print(f"{'system':40s} {'direction':9s} {'wrong':>7s} {'cs_rate':>8s} {'caveat':>6s} {'detector':>8s} "
          f"{'cpu_s':>6s}")
    for path in sorted((mafand / "predictions").glob("*.txt")):
        hyp = _lines(path)
        run = Run(meta=RunMeta(run_id=path.stem), corpus_id=corpus.corpus_id,
                  outputs=[Output(id=str(i), predicted=h) for i, h in enumerate(hyp, 1)])
        t = time.process_time()
        res = score_run(ScoringRequest(run_id=path.stem, corpus=corpus, run=run, target_card=tcard,
                                       source_card=scard, include=["core.code_switching"], n_bootstrap=10))
        cpu = time.process_time() - t
        row = next(r for r in res.metric_rows if r.metric_id == "core.code_switching")
        per = res.per_entry["core.code_switching"]
        detected = sum(1 for e in per if e is not None and e.detail.get("language") is not None)
        caveat = any(c.code == "wrong_language_output" for c in res.run_card.score_caveats)
        direction = "fr->ewe" if "_fr_ewe_" in path.name else "ewe->fr"
        rate = res.run_card.scores.code_switching_rate
        print(f"{path.stem:40s} {direction:9s} {row.extra['wrong_language_share']:7.4f} "
              f"{rate:8.4f} {'yes' if caveat else 'no':>6s} {detected:8d} {cpu:6.2f}", flush=True)


if __name__ == "__main__":
    main()
