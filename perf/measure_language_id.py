"""Wrong-language detection measured on the shared data (the numbers of the README).

Usage: python perf/measure_language_id.py [--data SHARED_DATA_DIR] [PART ...]

Parts (all by default):

- ``mafand``: every MAFAND-MT system output scored against the fr→ewe corpus. The 16 fr→ewe
  outputs are Ewe; the 16 ewe→fr outputs are French, i.e. wrong-language outputs there. For
  each system: the share of entries judged wholly in another language, code_switching_rate,
  whether the run gets the caveat ``wrong_language_output``, how many entries needed the
  detector, and the CPU time of the metric (the first system also pays for loading the detector).
- ``english``: the English sources of the Tatoeba corpora (200 sentences) as outputs of the
  first 200 MAFAND fr→ewe entries: the share judged wrong-language.
- ``segments``: the first n words (n = 1, 2, 3) of each MAFAND French line as the output of
  its own entry (share judged wrong-language: copies of the source) and of the next entry (French
  that is no copy: only the words themselves tell), and of each Ewe line as the output of the next
  entry (false positives: the other entry's reference does not make its words neutral).
  Segments without a letter or made only of their entry's reference words (names carried
  over) are left out: an output made of its reference's words is never judged.
- ``system_segments``: false positives on Ewe that is not in the corpus: the first n words
  (n = 1, 2, 3) of each real fr→ewe system output (afribart, which copies French sources, left
  out) as the output of the next entry, and as the output of its own entry (whose source it may
  share names and copied words with: the judgment reads the source).
- ``cree``: the Cree verb-form runs scored without an analyzer (an empty analyzer folder) and
  with the strict analyzer, ``core.code_switching`` alone: entries judged wrong-language by
  language, and the caveat.
- ``tatoeba``: the 24 harness reports of ``data/tatoeba``, each scored with its own entries as
  the corpus: entries judged wrong-language and the caveat.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from mteval_gui.cards import try_load_card
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.run import Output, Run, RunMeta
from mteval_gui.scoring.runner import RunResult, ScoringRequest, score_run

PARTS = ("mafand", "english", "segments", "system_segments", "cree", "tatoeba")


def _lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = text[:-1] if text.endswith("\n") else text
    return [unicodedata.normalize("NFC", line) for line in text.split("\n")]


def _mafand(shared: Path) -> tuple[Corpus, Path]:
    mafand = shared / "ewe" / "mafand-fr-ewe"
    fr, ewe = _lines(mafand / "test.fr"), _lines(mafand / "test.ewe")
    entries = [Entry(id=str(i), source=s, reference=r) for i, (s, r) in enumerate(zip(fr, ewe, strict=True), 1)]
    return Corpus(corpus_id="mafand-fr-ewe", language_pair=LanguagePair(source="fra", target="ewe"),
                  entries=entries), mafand


def _score(corpus: Corpus, outputs: Sequence[str | None], run_id: str, *, ids: Sequence[str] | None = None,
           options: dict[str, object] | None = None) -> tuple[RunResult, float]:
    lp = corpus.language_pair
    ids = ids if ids is not None else [e.id for e in corpus.entries]
    run = Run(meta=RunMeta(run_id=run_id), corpus_id=corpus.corpus_id,
              outputs=[Output(id=i, predicted=o or "") for i, o in zip(ids, outputs, strict=True)])
    t = time.process_time()
    res = score_run(ScoringRequest(run_id=run_id, corpus=corpus, run=run, target_card=try_load_card(lp.target),
                                   source_card=try_load_card(lp.source), include=["core.code_switching"],
                                   n_bootstrap=10, options=dict(options or {})))
    return res, time.process_time() - t


def _judged(res: RunResult) -> tuple[list[bool], Counter[str], bool]:
    per = res.per_entry["core.code_switching"]
    wrong = [bool(e is not None and e.detail.get("wrong_language")) for e in per]
    langs = Counter(str(e.detail.get("language")) for e in per if e is not None and e.detail.get("wrong_language"))
    caveat = any(c.code == "wrong_language_output" for c in res.run_card.score_caveats)
    return wrong, langs, caveat


def mafand(shared: Path) -> None:
    corpus, folder = _mafand(shared)
    print(f"{'system':40s} {'direction':9s} {'wrong':>7s} {'cs_rate':>8s} {'caveat':>6s} {'detector':>8s} "
          f"{'cpu_s':>6s}")
    for path in sorted((folder / "predictions").glob("*.txt")):
        res, cpu = _score(corpus, _lines(path), path.stem)
        row = next(r for r in res.metric_rows if r.metric_id == "core.code_switching")
        per = res.per_entry["core.code_switching"]
        detected = sum(1 for e in per if e is not None and e.detail.get("language") is not None)
        _, _, caveat = _judged(res)
        direction = "fr->ewe" if "_fr_ewe_" in path.name else "ewe->fr"
        rate = res.run_card.scores.code_switching_rate
        print(f"{path.stem:40s} {direction:9s} {row.extra['wrong_language_share']:7.4f} "
              f"{rate:8.4f} {'yes' if caveat else 'no':>6s} {detected:8d} {cpu:6.2f}", flush=True)


def english(shared: Path) -> None:
    corpus, _ = _mafand(shared)
    sources = [unicodedata.normalize("NFC", e["source"])
               for p in sorted((shared / "tatoeba" / "corpora").glob("*.json"))
               for e in json.loads(p.read_text(encoding="utf-8"))["entries"]]
    part = corpus.model_copy(update={"entries": corpus.entries[:len(sources)]})
    res, cpu = _score(part, sources, "tatoeba-english")
    wrong, langs, _ = _judged(res)
    print(f"English sentences for an Ewe target: {sum(wrong)} of {len(wrong)} wrong-language "
          f"({sum(wrong) / len(wrong):.1%}; {dict(langs)}), cpu {cpu:.2f} s")
    for text, w in zip(sources, wrong, strict=True):
        if not w:
            print(f"  not judged wrong-language: {text!r}")


def _judgeable(corpus: Corpus, outputs: Sequence[str]) -> list[bool]:
    """Segments with a letter that are not made only of their entry's reference words (names
    carried over: such an output is never judged), whatever the judge does with them."""
    from mteval_gui.text import match_keys, word_tokens

    out = []
    for entry, text in zip(corpus.entries, outputs, strict=True):
        ref = set(match_keys(word_tokens(entry.reference)))
        keys = [k for k in match_keys(word_tokens(text)) if any(c.isalpha() for c in k)]
        out.append(bool(keys) and not all(k in ref for k in keys))
    return out


def segments(shared: Path) -> None:
    corpus, folder = _mafand(shared)
    fr, ewe = _lines(folder / "test.fr"), _lines(folder / "test.ewe")
    n = len(ewe)
    totals = {"fra": [0, 0, 0], "fra-next": [0, 0, 0], "ewe": [0, 0, 0]}
    for k in (1, 2, 3):
        for lang, lines, shift in (("fra", fr, 0), ("fra-next", fr, 1), ("ewe", ewe, 1)):
            outputs = [" ".join(lines[(i + n - shift) % n].split()[:k]) for i in range(n)]
            res, cpu = _score(corpus, outputs, f"{lang}-{k}")
            wrong, langs, _ = _judged(res)
            judged = _judgeable(corpus, outputs)
            hits = sum(1 for w, j in zip(wrong, judged, strict=True) if w and j)
            total = sum(judged)
            per = res.per_entry["core.code_switching"]
            nothing = sum(1 for e, j in zip(per, judged, strict=True)
                          if j and e is not None and e.detail.get("target_evidence") is None
                          and e.detail.get("language") is None)
            totals[lang][0] += hits
            totals[lang][1] += total
            totals[lang][2] += nothing
            what = {"fra": "French segments (copies of the source) judged wrong-language",
                    "fra-next": "French segments (another entry's source) judged wrong-language",
                    "ewe": "Ewe segments judged wrong (FP)"}[lang]
            print(f"{k}-word {what}: {hits} of {total} ({hits / total:.1%}; {dict(langs)}; {nothing} with "
                  f"nothing to judge: names, words both languages use), cpu {cpu:.2f} s", flush=True)
    for lang, (hits, total, nothing) in totals.items():
        print(f"1-3 words, {lang}: {hits} of {total} ({hits / total:.1%}); of the {total - nothing} with something "
              f"to judge: {hits / (total - nothing):.1%}")


def system_segments(shared: Path) -> None:
    corpus, folder = _mafand(shared)
    hits = [0, 0]
    total = [0, 0]
    for path in sorted((folder / "predictions").glob("*_fr_ewe_*.txt")):
        if "afribart" in path.name:
            continue
        lines = _lines(path)
        n = len(lines)
        for k in (1, 2, 3):
            for side, shift in enumerate((1, 0)):
                outputs = [" ".join(lines[(i + n - shift) % n].split()[:k]) for i in range(n)]
                res, _ = _score(corpus, outputs, f"{path.stem}-{k}")
                wrong, _langs, _ = _judged(res)
                judged = _judgeable(corpus, outputs)
                hits[side] += sum(1 for w, j in zip(wrong, judged, strict=True) if w and j)
                total[side] += sum(judged)
        print(f"{path.stem:40s} cumulative: next entry {hits[0]} of {total[0]} ({hits[0] / total[0]:.2%}), "
              f"own entry {hits[1]} of {total[1]} ({hits[1] / total[1]:.2%}) judged wrong-language", flush=True)


def cree(shared: Path) -> None:
    from mteval_gui.io.corpus import read_corpus
    from mteval_gui.io.runs import read_run

    folder = shared / "crk" / "verbforms"
    corpus = read_corpus(folder / "corpus.jsonl", source_lang="eng", target_lang="crk").value
    ids = [e.id for e in corpus.entries]
    analyzer = shared / "crk" / "fst" / "crk-strict-analyzer-for-dictionary.hfstol"
    with tempfile.TemporaryDirectory() as empty:
        for label, options in (("no analyzer", {"analyzers_dir": empty}),
                               ("strict analyzer", {"analyzer_path": str(analyzer)})):
            for path in sorted((folder / "runs").glob("*.jsonl")):
                run = read_run(path, entry_ids=ids).value
                by_id = {o.id: o.predicted for o in run.outputs}
                outputs = [by_id.get(i) for i in ids]
                res, cpu = _score(corpus, outputs, path.stem, options=options)
                wrong, langs, caveat = _judged(res)
                shown = [o for o, w in zip(outputs, wrong, strict=True) if w][:4]
                print(f"{label:16s} {path.stem:14s} wrong-language {sum(wrong):3d} of {len(wrong)} {dict(langs)} "
                      f"caveat {'yes' if caveat else 'no'} cs_rate {res.run_card.scores.code_switching_rate:.4f} "
                      f"cpu {cpu:.2f} s e.g. {shown}", flush=True)


def tatoeba(shared: Path) -> None:
    from mteval_gui.io.corpus import read_corpus
    from mteval_gui.io.runs import read_run

    for path in sorted((shared / "tatoeba" / "reports").glob("*_report.json")):
        corpus = read_corpus(path).value  # the report's entries, languages from its configuration
        ids = [e.id for e in corpus.entries]
        by_id = {o.id: o.predicted for o in read_run(path, entry_ids=ids).value.outputs}
        res, _ = _score(corpus, [by_id.get(i) for i in ids], path.stem)
        wrong, langs, caveat = _judged(res)
        lp = corpus.language_pair
        print(f"{path.stem[4:19]} {path.stem[20:52]:32s} {lp.source}->{lp.target} wrong-language {sum(wrong):3d} of "
              f"{len(wrong):3d} {dict(langs)} caveat {'yes' if caveat else 'no'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    parser.add_argument("parts", nargs="*", metavar="PART", help=f"any of {', '.join(PARTS)} (default: all)")
    args = parser.parse_args()
    unknown = [p for p in args.parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part {unknown[0]!r}: choose among {', '.join(PARTS)}")
    for part in args.parts or PARTS:
        print(f"== {part}", flush=True)
        globals()[part](args.data)


if __name__ == "__main__":
    main()
