"""COMET on a GPU worker of a Ray cluster against the ``comet-score`` CLI on the same GPU.

Run it on a machine with a CUDA GPU and the ``comet`` and ``cluster`` extras
(``pip install -e ".[comet,cluster]"``). Without a GPU it says so and measures nothing (exit 2).

Both score the same ``--n`` segments (default: the MAFAND fr→ewe test set and one system's
output, NFC) with the same model (``--model``, default ``Unbabel/wmt22-comet-da``; it must be
downloaded or reachable):

- ``comet-score -s SRC -t HYP -r REF --model M --gpus 1 --batch_size B`` (one process: load the
  model, predict, print the system score);
- ``core.comet`` scored on a local Ray cluster with one GPU (``ray.init(num_gpus=1)``): the
  metric declares a GPU, so its batches go to a worker holding the GPU (``num_gpus=1``), which
  loads the model once and scores every batch (``--batch-size`` entries per committed batch).

Prints wall seconds and segments/s of both (model loading included, as a user waits for it), the
desktop process's CPU seconds, and the two system scores (they should agree to 1e-4).

Usage: ``python perf/bench_cluster_comet.py [--data ../shared/data] [--n 1563] [--model NAME]``
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def gpu_count() -> int:
    """CUDA GPUs torch sees (0 without torch or without a GPU)."""
    try:
        import torch
    except ImportError:
        return 0
    return int(torch.cuda.device_count()) if torch.cuda.is_available() else 0


def _lines(path: Path, n: int) -> list[str]:
    text = unicodedata.normalize("NFC", path.read_text(encoding="utf-8"))
    return text.splitlines()[:n]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--n", type=int, default=1563, help="segments (default: the whole test set)")
    ap.add_argument("--model", default="Unbabel/wmt22-comet-da")
    ap.add_argument("--system", default="m2m100_fr_ewe_rel_news_newsft")
    ap.add_argument("--comet-batch", type=int, default=16, help="COMET's own batch size (both tools)")
    ap.add_argument("--batch-size", type=int, default=200, help="entries per committed batch on the cluster")
    args = ap.parse_args()
    gpus = gpu_count()
    if gpus == 0:
        print("no CUDA GPU on this machine (torch sees none): nothing measured. Run this script on a "
              "machine with a GPU and the comet and cluster extras.")
        return 2
    if shutil.which("comet-score") is None:
        print("comet-score is not installed: pip install -e '.[comet]'")
        return 2
    import ray

    from mteval_gui.domain.card import MetricRef
    from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
    from mteval_gui.domain.run import Output, Run, RunMeta
    from mteval_gui.scoring.runner import MemorySink, ScoringRequest, score_run

    folder = args.data / "ewe" / "mafand-fr-ewe"
    src, ref = _lines(folder / "test.fr", args.n), _lines(folder / "test.ewe", args.n)
    hyp = _lines(folder / "predictions" / f"{args.system}.txt", args.n)
    n = len(src)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for name, lines in (("src", src), ("hyp", hyp), ("ref", ref)):
            (d / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        res = subprocess.run(["comet-score", "-s", str(d / "src.txt"), "-t", str(d / "hyp.txt"), "-r",
                              str(d / "ref.txt"), "--model", args.model, "--gpus", "1", "--batch_size",
                              str(args.comet_batch), "--quiet", "--only_system"],
                             capture_output=True, text=True, check=False)
        cli_wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if res.returncode:
            print(f"comet-score failed:\n{res.stderr[-2000:]}")
            return 1
        found = re.findall(r"score:\s*([0-9.]+)", res.stdout)
        cli_score = float(found[-1]) if found else float("nan")
        cli_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)

    corpus = Corpus(corpus_id="mafand", language_pair=LanguagePair(source="fra", target="ewe"),
                    entries=[Entry(id=str(i), source=s, reference=r)
                             for i, (s, r) in enumerate(zip(src, ref, strict=True))])
    run = Run(meta=RunMeta(run_id=args.system, model_slug=args.system), corpus_id="mafand",
              outputs=[Output(id=str(i), predicted=h) for i, h in enumerate(hyp)])
    request = ScoringRequest(run_id=args.system, corpus=corpus, run=run, include=["core.comet"],
                             metrics=[MetricRef(id="core.comet",
                                                python_name="mteval_gui.scoring.metrics.comet:CometMetric")],
                             options={"comet_model": args.model, "comet_batch_size": args.comet_batch},
                             batch_size=args.batch_size, n_bootstrap=0, cluster="local")
    ray.init(num_gpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    t = time.perf_counter()
    result = score_run(request, sink=MemorySink())
    ray_wall = time.perf_counter() - t
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    ray.shutdown()
    ours = result.run_card.scores.comet
    print(f"COMET {args.model}, {n} segments, {gpus} GPU(s) seen; wall s (segments/s), model loading included:")
    print(f"  comet-score --gpus 1          {cli_wall:8.2f} ({n / cli_wall:7.1f})   CPU s {cli_cpu:7.2f}"
          f"   system score {cli_score:.4f}")
    print(f"  mteval on a Ray GPU worker    {ray_wall:8.2f} ({n / ray_wall:7.1f})   desktop CPU s "
          f"{(cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime):7.2f}   system score "
          f"{ours if ours is not None else float('nan'):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
