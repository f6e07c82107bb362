"""n-gram match counts of chrF++ and BLEU, compiled with numba.

A hypothesis is compared with its references order by order, as sacrebleu's ``CHRF`` and
``BLEU`` do it with Counters of n-grams:

- chrF (``merge=False``): for each reference and each order ``n`` the number of hypothesis
  n-grams (0 when the reference has none of that order), of reference n-grams, and of
  matches (``min`` of the two counts of each distinct n-gram, summed);
- BLEU (``merge=True``): for each order the matches against the references merged as
  sacrebleu merges them (an n-gram counts as often as in the reference that has it most
  often) and the number of hypothesis n-grams.

Symbols are integers: code points for character n-grams, word ids for word n-grams (the
caller numbers the distinct words of a batch). n-grams are identified exactly, without
hashing collisions: an n-gram's id is the id of the pair (id of its first ``n - 1`` symbols,
its last symbol), found in an open-addressing table whose keys are those pairs.

The kernel is loaded on first use only (:func:`kernel`): numba compiles it once per machine
and later processes load its kept machine code with llvmlite alone
(:mod:`mteval_gui.scoring.metrics.native`). Without numba the metrics use sacrebleu's own
code (:func:`implementation` says which).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mteval_gui.scoring.metrics.native import KeptKernel

# --------------------------------------------------------------------------- kernel (numba subset)
# Plain Python in the subset numba compiles; :func:`kernel` compiles it.


def _slot(key: int, mask: int) -> int:
    h = key ^ (key >> 31)
    h = h * 0x5BD1E995
    h = h ^ (h >> 29)
    return h & mask


def _problem(z: Any, seg_off: Any, first_seg: int, end_seg: int, max_order: int, merge: int, out: Any,
             width: int, row: int, table_key: Any, table_id: Any, table_stamp: Any, stamp: int, mask: int,
             seg: Any, seg_end: Any, first_id: Any, ngram_id: Any, counts: Any, matches: Any) -> int:
    """Counts of one hypothesis (segment ``first_seg``) against its references (segments
    ``first_seg + 1 .. end_seg - 1``), written to ``out`` (rows of ``width``) from row ``row``.
    A table slot is in use when its stamp is the current one (the table is never cleared).
    Returns the last stamp used."""
    base = seg_off[first_seg]
    length = seg_off[end_seg] - base
    nseg = end_seg - first_seg
    for s in range(nseg):
        lo = seg_off[first_seg + s] - base
        hi = seg_off[first_seg + s + 1] - base
        for i in range(lo, hi):
            seg[i] = s
            seg_end[i] = hi
    hyp_len = seg_off[first_seg + 1] - seg_off[first_seg]
    for n in range(1, max_order + 1):
        stamp += 1
        distinct = 0
        for i in range(length):
            if i + n > seg_end[i]:
                continue
            key = z[base + i] if n == 1 else ngram_id[i] * length + first_id[i + n - 1]
            t = _slot(key, mask)
            while table_stamp[t] == stamp and table_key[t] != key:
                t = (t + 1) & mask
            if table_stamp[t] != stamp:
                table_stamp[t] = stamp
                table_key[t] = key
                table_id[t] = distinct
                for s in range(nseg):
                    counts[distinct * nseg + s] = 0
                distinct += 1
            g = table_id[t]
            # the key of position i is read before its id is replaced; later positions read
            # only their own id and first_id, which order 1 set
            ngram_id[i] = g
            if n == 1:
                first_id[i] = g
            counts[g * nseg + seg[i]] += 1
        hyp_count = max(0, hyp_len - n + 1)
        if merge != 0:
            correct = 0
            for g in range(distinct):
                h = counts[g * nseg]
                if h == 0:
                    continue
                most = 0
                for s in range(1, nseg):
                    most = max(most, counts[g * nseg + s])
                correct += min(h, most)
            out[row * width + n - 1] = correct
            out[row * width + max_order + n - 1] = hyp_count
        else:
            for s in range(1, nseg):
                matches[s] = 0
            for g in range(distinct):
                h = counts[g * nseg]
                if h == 0:
                    continue
                for s in range(1, nseg):
                    matches[s] += min(h, counts[g * nseg + s])
            for s in range(1, nseg):
                ref_len = seg_off[first_seg + s + 1] - seg_off[first_seg + s]
                ref_count = max(0, ref_len - n + 1)
                at = (row + s - 1) * width + 3 * (n - 1)
                out[at] = hyp_count if ref_count > 0 else 0
                out[at + 1] = ref_count
                out[at + 2] = matches[s]
    return stamp


def _batch_counts(z: Any, seg_off: Any, prob_off: Any, problems: int, max_order: int, merge: int, out: Any,
                  width: int, table_key: Any, table_id: Any, table_stamp: Any, size: int, seg: Any, seg_end: Any,
                  first_id: Any, ngram_id: Any, counts: Any, matches: Any) -> int:
    """Every problem ``p`` of a batch: segments ``prob_off[p] .. prob_off[p + 1] - 1`` (the
    hypothesis first), symbols ``z[seg_off[s]:seg_off[s + 1]]`` of segment ``s``. The buffers
    are sized by the caller: the table ``size`` (a power of two, at least twice the longest
    problem's symbols), the others the longest problem (``counts`` times its segments)."""
    for t in range(size):
        table_stamp[t] = 0
    stamp = 0
    for p in range(problems):
        length = seg_off[prob_off[p + 1]] - seg_off[prob_off[p]]
        mask = 3
        while mask + 1 < 2 * length:
            mask = 2 * mask + 1
        row = p if merge != 0 else prob_off[p] - p
        stamp = _problem(z, seg_off, prob_off[p], prob_off[p + 1], max_order, merge, out, width, row, table_key,
                         table_id, table_stamp, stamp, mask, seg, seg_end, first_id, ngram_id, counts, matches)
    return 0


# --------------------------------------------------------------------------- compilation

_ARGS = ("i32*", "i64*", "i64*", "i64", "i64", "i64", "i64*", "i64", "i64*", "i64*", "i64*", "i64", "i64*", "i64*",
         "i64*", "i64*", "i64*", "i64*")  # the parameters of _batch_counts
_KERNEL = KeptKernel("ngram_kernel", Path(__file__).resolve(), _batch_counts, (_slot, _problem), _ARGS)
kernel = _KERNEL.get  # the compiled batch kernel, once per process (None without numba)
implementation = _KERNEL.implementation  # "numba" or "sacrebleu"
fallback_reason = _KERNEL.fallback_reason  # why sacrebleu's code counts (None when the kernel does)


# --------------------------------------------------------------------------- batches


def _code_points(texts: Sequence[str]) -> Any:
    """The code points of the concatenated texts (lone surrogates kept as they are)."""
    joined = "".join(texts)
    return np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype="<i4").astype(np.int32)  # a writable copy


def _run(symbols: Any, lengths: list[int], refs_per_problem: Sequence[int], max_order: int, merge: bool) -> Any:
    run = kernel()
    if run is None:
        raise RuntimeError("the n-gram kernel needs numba")
    seg_off = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=seg_off[1:])
    prob_off = np.zeros(len(refs_per_problem) + 1, dtype=np.int64)
    np.cumsum([1 + r for r in refs_per_problem], out=prob_off[1:])
    rows = len(refs_per_problem) if merge else sum(refs_per_problem)
    width = (2 if merge else 3) * max_order
    out = np.zeros((rows, width), dtype=np.int64)
    if not rows or max_order <= 0:
        return out
    problem_lengths = np.diff(seg_off[prob_off])
    longest = max(1, int(problem_lengths.max()))
    widest = 1 + max(refs_per_problem)
    size = 4
    while size < 2 * longest:
        size *= 2
    if symbols.size == 0:
        symbols = np.zeros(1, dtype=np.int32)  # a valid pointer; nothing is read
    table = np.empty((3, size), dtype=np.int64)  # keys, ids, stamps
    work = np.empty((4, longest), dtype=np.int64)  # segment, its end, unigram id, n-gram id of each position
    counts = np.empty(longest * widest, dtype=np.int64)
    matches = np.empty(widest, dtype=np.int64)
    address = [a.ctypes.data for a in (symbols, seg_off, prob_off)]
    run(address[0], address[1], address[2], len(refs_per_problem), max_order, int(merge), out.ctypes.data, width,
        table[0].ctypes.data, table[1].ctypes.data, table[2].ctypes.data, size, work[0].ctypes.data,
        work[1].ctypes.data, work[2].ctypes.data, work[3].ctypes.data, counts.ctypes.data, matches.ctypes.data)
    return out


def char_counts(problems: Sequence[tuple[str, Sequence[str]]], max_order: int) -> Any:
    """chrF counts of character n-grams, orders 1..``max_order``: one row of
    ``[hyp, ref, match] * max_order`` per (problem, reference), in order. Each problem is
    ``(hypothesis characters, [reference characters…])``, whitespace already removed."""
    texts: list[str] = []
    refs_per_problem = []
    for hyp, refs in problems:
        texts.append(hyp)
        texts.extend(refs)
        refs_per_problem.append(len(refs))
    return _run(_code_points(texts), [len(t) for t in texts], refs_per_problem, max_order, False)


def _word_ids(problems: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]]) -> tuple[Any, list[int], list[int]]:
    """The words of a batch as ids (one per distinct word), segment lengths, references per problem."""
    flat: list[str] = []
    lengths: list[int] = []
    refs_per_problem = []
    for hyp, refs in problems:
        flat += hyp
        lengths.append(len(hyp))
        for r in refs:
            flat += r
            lengths.append(len(r))
        refs_per_problem.append(len(refs))
    vocab = dict(zip(dict.fromkeys(flat), range(len(flat)), strict=False))
    return np.fromiter(map(vocab.__getitem__, flat), dtype=np.int32, count=len(flat)), lengths, refs_per_problem


def word_counts(problems: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]], max_order: int) -> Any:
    """chrF counts of word n-grams (one row of ``[hyp, ref, match] * max_order`` per
    (problem, reference)); each problem is ``(hypothesis words, [reference words…])``."""
    symbols, lengths, refs_per_problem = _word_ids(problems)
    return _run(symbols, lengths, refs_per_problem, max_order, False)


def bleu_counts(problems: Sequence[tuple[Sequence[str], Sequence[Sequence[str]]]], max_order: int) -> Any:
    """BLEU counts: one row of ``[correct] * max_order + [total] * max_order`` per problem,
    ``(hypothesis tokens, [reference tokens…])``, the references merged as sacrebleu does."""
    symbols, lengths, refs_per_problem = _word_ids(problems)
    return _run(symbols, lengths, refs_per_problem, max_order, True)
