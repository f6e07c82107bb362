"""Import speed: a generated 100,000-entry corpus and one run of it into a fresh workspace.

    python perf/bench_import.py [--entries N] [--format jsonl|tsv|text]

Prints the seconds of each phase (read + check, write) for the corpus and the run, and the
total. Target: under 10 s for 100,000 entries on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mteval_gui.app.imports import import_corpus_file, import_run_file  # noqa: E402
from mteval_gui.store import Workspace, repo  # noqa: E402

WORDS = [
    "nipâw",
    "mîcisow",
    "pimohtêw",
    "takohtêw",
    "nikamow",
    "apiw",
    "pîhtokêw",
    "kîwêw",
    "atoskêw",
    "pimâtisiw",
    "wâpamêw",
    "ê-nipât",
    "kinipân",
    "nititwân",
    "kisipwêhtân",
    "akpe",
    "ŋdi",
    "woezɔ",
    "ɖevi",
    "aƒeme",
    "suku",
    "agbalẽ",
    "tsi",
    "asime",
]
ENGLISH = [
    "he",
    "she",
    "sleeps",
    "eats",
    "walks",
    "arrives",
    "sings",
    "sits",
    "enters",
    "goes",
    "home",
    "works",
    "lives",
    "sees",
    "the",
    "a",
    "water",
    "market",
]


def generate(directory: Path, n: int, fmt: str, seed: int = 7) -> tuple[Path, Path | None, Path]:
    rng = random.Random(seed)
    refs = [" ".join(rng.choices(WORDS, k=rng.randint(1, 12))) for _ in range(n)]
    srcs = [" ".join(rng.choices(ENGLISH, k=rng.randint(2, 14))) for _ in range(n)]
    ref_path = None
    if fmt == "jsonl":
        corpus = directory / "bench.jsonl"
        with corpus.open("w", encoding="utf-8") as fh:
            fh.write(
                json.dumps({"corpus": {"corpus_id": "bench", "language_pair": {"source": "eng", "target": "crk"}}})
                + "\n"
            )
            for i in range(n):
                rec = {"id": f"e{i:06d}", "source": srcs[i], "reference": refs[i], "difficulty": 1 + i % 5,
                       "domain": "bench"}
                if i % 10 == 0:
                    rec["variants"] = [refs[i].upper()]
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    elif fmt == "tsv":
        corpus = directory / "bench.tsv"
        with corpus.open("w", encoding="utf-8") as fh:
            fh.write("id\tsource\treference\tdifficulty\n")
            for i in range(n):
                fh.write(f"e{i:06d}\t{srcs[i]}\t{refs[i]}\t{1 + i % 5}\n")
    else:
        corpus = directory / "bench.en"
        ref_path = directory / "bench.crk"
        corpus.write_text("\n".join(srcs) + "\n", encoding="utf-8")
        ref_path.write_text("\n".join(refs) + "\n", encoding="utf-8")
    run = directory / "run.jsonl"
    with run.open("w", encoding="utf-8") as fh:
        fh.write(json.dumps({"run": {"run_id": "bench-run", "model_slug": "bench"}}) + "\n")
        ids = [f"e{i:06d}" for i in range(n)] if fmt != "text" else [str(i + 1) for i in range(n)]
        for i, eid in enumerate(ids):
            if i % 97 == 0:
                continue  # some outputs missing
            rec = {"id": eid, "predicted": refs[i] if i % 3 else refs[(i + 1) % n], "latency_s": 0.4,
                   "usage": {"prompt_tokens": 50, "completion_tokens": 8}}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return corpus, ref_path, run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entries", type=int, default=100_000)
    ap.add_argument("--format", choices=("jsonl", "tsv", "text"), default="jsonl")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        corpus_file, ref_file, run_file = generate(d, args.entries, args.format)
        ws = Workspace(d / "ws.sqlite")
        c0, t0 = time.process_time(), time.perf_counter()
        corpus = import_corpus_file(ws, corpus_file, ref_path=ref_file, source_lang="eng", target_lang="crk",
                                    corpus_id="bench")
        c1, t1 = time.process_time(), time.perf_counter()
        run = import_run_file(ws, run_file, corpus_id="bench")
        c2, t2 = time.process_time(), time.perf_counter()
        n_outputs = repo.counts(ws)["outputs"]
        ws.close()
        size = sum(p.stat().st_size for p in (corpus_file, run_file) + ((ref_file,) if ref_file else ()))
        print(f"entries: {corpus.count:,}  run outputs: {run.count:,} (+{n_outputs - run.count:,} missing)"
              f"  input: {size / 1e6:.1f} MB ({args.format} corpus, jsonl run)")
        print(f"corpus import (read, check, write): {t1 - t0:6.2f} s wall  {c1 - c0:6.2f} s CPU")
        print(f"run import (read, check, write):    {t2 - t1:6.2f} s wall  {c2 - c1:6.2f} s CPU")
        print(f"total:                              {t2 - t0:6.2f} s wall  {c2 - c0:6.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
