"""Translation edit rate with shifts (Snover et al., 2006), compiled with numba.

The numbers are exactly sacrebleu's TER (``sacrebleu.metrics.lib_ter``): the same greedy
search for block shifts over a beam-limited Levenshtein distance, with

- unit costs for insertion, deletion and substitution;
- the beam: row ``i`` of the distance matrix covers the columns around the pseudo-diagonal
  ``floor(i * len(ref) / len(hyp))``, 25 either side (more when the lengths differ by more
  than a factor of 50), the last row all columns;
- the same preference between equal-cost operations (match/substitution, then a
  hypothesis word left unmatched, then a reference word left unmatched), hence the same
  alignment and the same shift candidates;
- shifts of at most 10 words over a distance of at most 50 words, only of blocks that are
  wrongly placed in the hypothesis and match reference words that are themselves
  unmatched, tried at each aligned position of the block's reference span;
- the same ranking of candidates (largest gain, then longest block, then earliest block,
  then earliest target position) and the same budget: once 1,000 candidates have been
  tried in one sentence pair, the search stops and the shift found in that round is not
  applied.

sacrebleu memoises rows of the distance matrix in a trie of hypothesis prefixes; here a
candidate's matrix starts from the row where the shifted words first differ from the
current hypothesis, which gives the same rows.

Words are compared as integers: :func:`ter_edits` maps each distinct string to an id.
The kernel is loaded on first use only (:func:`kernel`). numba compiles it once per machine
(a few seconds) and its machine code is kept in a file beside this one (``__pycache__``), or
under the per-user cache folder (:func:`mteval_gui.paths.user_cache_dir`) when the
installation is read-only, or in ``$NUMBA_CACHE_DIR`` when set; later processes load that
file with llvmlite alone (about 0.05 s, where importing numba and loading its own cache took
0.5–0.8 s). Without numba the statistics come from sacrebleu's own implementation
(:func:`implementation` says which one is in use).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mteval_gui.scoring.metrics.native import KeptKernel

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
INFINITY = 10**16  # an unreachable cell; finite costs never come near it

# edit operations, rewriting the hypothesis into the reference
OP_MATCH = 0
OP_SUB = 1
OP_REF_WORD = 2  # a reference word without a hypothesis word (sacrebleu's "i" before flipping)
OP_HYP_WORD = 3  # a hypothesis word without a reference word (sacrebleu's "d" before flipping)
OP_UNDEF = 4


# --------------------------------------------------------------------------- kernel (numba subset)
# The functions below are plain Python written in the subset numba compiles; :func:`kernel`
# compiles them into one C-callable function over raw buffers (no array objects, no
# allocation, no exception: the compiled code calls nothing outside itself). Matrices are
# row-major with a row of ``m + 1`` cells; words are int32 ids, costs int64, operations int8.


def _beam_width(ratio: float) -> int:
    if ratio / 2 > BEAM_WIDTH:
        return math.ceil(ratio / 2 + BEAM_WIDTH)
    return BEAM_WIDTH


def _fill_rows(words: Any, n: int, ref: Any, r0: int, m: int, cost: Any, op: Any, start: int, ratio: float,
               beam: int) -> int:
    """Rows ``start + 1 .. n`` of the beam distance matrix (rows ``0 .. start`` must hold
    this hypothesis's prefix); returns the distance. ``ref[r0:r0 + m]`` are the reference words."""
    row = m + 1
    for i in range(start + 1, n + 1):
        here = i * row
        above = here - row
        for j in range(m + 1):
            cost[here + j] = INFINITY
            op[here + j] = OP_UNDEF
        diag = math.floor(i * ratio)
        lo = max(0, diag - beam)
        hi = min(m + 1, diag + beam)
        if i == n:
            hi = m + 1
        w = words[i - 1]
        for j in range(lo, hi):
            if j == 0:
                cost[here] = cost[above] + 1
                op[here] = OP_HYP_WORD
                continue
            best = INFINITY
            best_op = OP_UNDEF
            if w == ref[r0 + j - 1]:
                c = cost[above + j - 1]
                o = OP_MATCH
            else:
                c = cost[above + j - 1] + 1
                o = OP_SUB
            if best > c:
                best = c
                best_op = o
            c = cost[above + j] + 1
            if best > c:
                best = c
                best_op = OP_HYP_WORD
            c = cost[here + j - 1] + 1
            if best > c:
                best = c
                best_op = OP_REF_WORD
            cost[here + j] = best
            op[here + j] = best_op
    return int(cost[n * row + m])


def _alignment(op: Any, n: int, m: int, trace: Any, align: Any, hyp_err: Any, ref_err: Any) -> bool:
    """From the operations of the optimal path: ``align[r]`` = hypothesis position aligned
    with (or just before) reference word ``r``; cumulative error counts of both sides
    (``hyp_err[k]`` = wrong hypothesis words before position ``k``). False when the path
    leaves the beam (which the beam's last full row rules out)."""
    row = m + 1
    k = 0
    i = n
    j = m
    while i > 0 or j > 0:
        o = op[i * row + j]
        trace[k] = o
        k += 1
        if o in (OP_MATCH, OP_SUB):
            i -= 1
            j -= 1
        elif o == OP_REF_WORD:
            j -= 1
        elif o == OP_HYP_WORD:
            i -= 1
        else:
            return False
    ph = -1
    pr = -1
    hyp_err[0] = 0
    ref_err[0] = 0
    for t in range(k - 1, -1, -1):
        o = trace[t]
        if o in (OP_MATCH, OP_SUB):
            e = 1 if o == OP_SUB else 0
            ph += 1
            pr += 1
            align[pr] = ph
            hyp_err[ph + 1] = hyp_err[ph] + e
            ref_err[pr + 1] = ref_err[pr] + e
        elif o == OP_HYP_WORD:
            ph += 1
            hyp_err[ph + 1] = hyp_err[ph] + 1
        else:
            pr += 1
            align[pr] = ph
            ref_err[pr + 1] = ref_err[pr] + 1
    return True


def _shifted(words: Any, n: int, start: int, length: int, target: int, out: Any) -> None:
    """``words`` with the block ``[start, start + length)`` moved to ``target``, as
    sacrebleu's ``_perform_shift`` does it: the block goes before ``target`` when that lies
    outside the block, and a target inside the block (or at its end) moves the block right
    by ``target - start`` words."""
    if target < start:
        q = target
    elif target > start + length:
        q = target - length
    else:
        q = min(n - length, target)
    # q: where the block starts in the result; the other words keep their order
    for x in range(n):
        if x < q:
            y = x
        elif x < q + length:
            out[x] = words[start + x - q]
            continue
        else:
            y = x - length
        out[x] = words[y] if y < start else words[y + length]


def _common_prefix(a: Any, b: Any, n: int) -> int:
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    return p


def _pair_edits(hyp: Any, h0: int, n: int, ref: Any, r0: int, m: int, words: Any, cand: Any, cost: Any, op: Any,
                scratch_cost: Any, scratch_op: Any, trace: Any, align: Any, hyp_err: Any, ref_err: Any) -> int:
    """Shifts plus the beam edit distance after them (sacrebleu's ``translation_edit_rate``)
    of ``hyp[h0:h0 + n]`` against ``ref[r0:r0 + m]``; -1 when an alignment left the beam."""
    if m == 0:
        return n
    row = m + 1
    for x in range(n):
        words[x] = hyp[h0 + x]
    for j in range(m + 1):
        cost[j] = j
        op[j] = OP_REF_WORD
    ratio = m / n if n > 0 else 1.0
    beam = _beam_width(ratio)

    distance = _fill_rows(words, n, ref, r0, m, cost, op, 0, ratio, beam)
    shifts = 0
    checked = 0
    while True:
        if not _alignment(op, n, m, trace, align, hyp_err, ref_err):
            return -1
        found = False
        best_gain = 0
        best_len = 0
        best_start = 0
        best_target = 0
        stop = False
        for sh in range(n):
            if stop:
                break
            for sr in range(m):
                if stop:
                    break
                if abs(sr - sh) > MAX_SHIFT_DIST:
                    continue
                length = 0
                while words[sh + length] == ref[r0 + sr + length] and length < MAX_SHIFT_SIZE:
                    length += 1
                    if (hyp_err[sh + length] - hyp_err[sh] != 0
                            and ref_err[sr + length] - ref_err[sr] != 0
                            and not (sh <= align[sr] < sh + length)):
                        prev = -1
                        for off in range(-1, length):
                            target = 0 if sr + off == -1 else align[sr + off] + 1
                            if target == prev:
                                continue
                            prev = target
                            _shifted(words, n, sh, length, target, cand)
                            p = _common_prefix(cand, words, n)
                            if p == n:
                                d = distance
                            else:
                                for j in range(p * row, p * row + row):
                                    scratch_cost[j] = cost[j]
                                d = _fill_rows(cand, n, ref, r0, m, scratch_cost, scratch_op, p, ratio, beam)
                            gain = distance - d
                            checked += 1
                            if (not found or gain > best_gain
                                    or (gain == best_gain and (length > best_len
                                        or (length == best_len and (sh < best_start
                                            or (sh == best_start and target < best_target)))))):
                                found = True
                                best_gain = gain
                                best_len = length
                                best_start = sh
                                best_target = target
                        if checked >= MAX_SHIFT_CANDIDATES:
                            stop = True
                            break
                    if n == sh + length or m == sr + length:
                        break
        if checked >= MAX_SHIFT_CANDIDATES or not found or best_gain <= 0:
            break
        shifts += 1
        _shifted(words, n, best_start, best_len, best_target, cand)
        p = _common_prefix(cand, words, n)
        for x in range(n):
            words[x] = cand[x]
        distance = _fill_rows(words, n, ref, r0, m, cost, op, p, ratio, beam)
    return shifts + distance


def _batch_edits(hyp_ids: Any, hyp_off: Any, ref_ids: Any, ref_off: Any, pairs: int, out: Any, words: Any,
                 cand: Any, cost: Any, op: Any, scratch_cost: Any, scratch_op: Any, trace: Any, align: Any,
                 hyp_err: Any, ref_err: Any) -> int:
    """Edits of each pair into ``out``; the buffers are sized for the longest hypothesis and
    reference of the batch. Returns -1, or the index of a pair whose alignment left the beam."""
    for k in range(pairs):
        h0 = hyp_off[k]
        r0 = ref_off[k]
        e = _pair_edits(hyp_ids, h0, hyp_off[k + 1] - h0, ref_ids, r0, ref_off[k + 1] - r0, words, cand, cost, op,
                        scratch_cost, scratch_op, trace, align, hyp_err, ref_err)
        if e < 0:
            return k
        out[k] = e
    return -1


# --------------------------------------------------------------------------- compilation and loading
#
# numba compiles the kernel once per machine and its machine code is kept and loaded with
# llvmlite alone (mteval_gui.scoring.metrics.native.KeptKernel, shared with the n-gram kernel).

_HELPERS = (_beam_width, _fill_rows, _alignment, _shifted, _common_prefix, _pair_edits)
_ARGS = ("i32*", "i64*", "i32*", "i64*", "i64", "i64*", "i32*", "i32*", "i64*", "i8*", "i64*", "i8*", "i8*", "i64*",
         "i64*", "i64*")  # the parameters of _batch_edits
_KERNEL = KeptKernel("ter_kernel", Path(__file__).resolve(), _batch_edits, _HELPERS, _ARGS)
kernel = _KERNEL.get  # the compiled batch kernel, once per process (None without numba)
implementation = _KERNEL.implementation  # "numba" or "sacrebleu"
fallback_reason = _KERNEL.fallback_reason  # why sacrebleu's code counts (None when the kernel does)


def ter_edits(pairs: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[int]:
    """Edits (shifts + edit distance) of each ``(hypothesis words, reference words)`` pair,
    the words already tokenised as sacrebleu's TER does. Same numbers as
    ``sacrebleu.metrics.lib_ter.translation_edit_rate``."""
    if not pairs:
        return []
    run = kernel()
    if run is None:
        from sacrebleu.metrics.lib_ter import translation_edit_rate

        return [int(translation_edit_rate(list(h), list(r))[0]) for h, r in pairs]
    vocab: dict[str, int] = {}
    ids = vocab.setdefault
    hyp_ids: list[int] = []
    ref_ids: list[int] = []
    hyp_off = [0]
    ref_off = [0]
    for h, r in pairs:
        hyp_ids.extend([ids(w, len(vocab)) for w in h])
        ref_ids.extend([ids(w, len(vocab)) for w in r])
        hyp_off.append(len(hyp_ids))
        ref_off.append(len(ref_ids))
    n = max(len(h) for h, _ in pairs)
    m = max(len(r) for _, r in pairs)
    arrays: list[NDArray[Any]] = [
        np.array(hyp_ids or [0], dtype=np.int32), np.array(hyp_off, dtype=np.int64),
        np.array(ref_ids or [0], dtype=np.int32), np.array(ref_off, dtype=np.int64),
    ]
    out = np.zeros(len(pairs), dtype=np.int64)
    cells = (n + 1) * (m + 1)
    buffers: list[NDArray[Any]] = [
        out, np.empty(n + 1, dtype=np.int32), np.empty(n + 1, dtype=np.int32),  # words, candidate
        np.empty(cells, dtype=np.int64), np.empty(cells, dtype=np.int8),  # costs, operations
        np.empty(cells, dtype=np.int64), np.empty(cells, dtype=np.int8),  # the same for a candidate
        np.empty(n + m + 1, dtype=np.int8), np.empty(m + 1, dtype=np.int64),  # path, alignment
        np.empty(n + 2, dtype=np.int64), np.empty(m + 2, dtype=np.int64),  # cumulative errors
    ]
    a = [x.ctypes.data for x in arrays]
    bad = run(a[0], a[1], a[2], a[3], len(pairs), *(x.ctypes.data for x in buffers))
    if bad >= 0:
        raise ValueError(f"TER: the optimal path left the beam (pair {bad})")
    return [int(x) for x in out]
