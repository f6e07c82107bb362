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
numba is imported on first use only (:func:`kernel`); without it the statistics come from
sacrebleu's own implementation (:func:`implementation` says which one is in use).
Compiled code is cached beside this file, or under the per-user cache folder
(:func:`mteval_gui.paths.user_cache_dir`) when the installation is read-only.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

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
# compiles them. Arrays: words are int32 ids, costs int64, operations int8.


def _beam_width(ratio: float) -> int:
    if ratio / 2 > BEAM_WIDTH:
        return math.ceil(ratio / 2 + BEAM_WIDTH)
    return BEAM_WIDTH


def _fill_rows(words: Any, ref: Any, cost: Any, op: Any, start: int, ratio: float, beam: int) -> int:
    """Rows ``start + 1 .. n`` of the beam distance matrix (rows ``0 .. start`` must hold
    this hypothesis's prefix); returns the distance."""
    n = words.shape[0]
    m = ref.shape[0]
    for i in range(start + 1, n + 1):
        for j in range(m + 1):
            cost[i, j] = INFINITY
            op[i, j] = OP_UNDEF
        diag = math.floor(i * ratio)
        lo = max(0, diag - beam)
        hi = min(m + 1, diag + beam)
        if i == n:
            hi = m + 1
        w = words[i - 1]
        for j in range(lo, hi):
            if j == 0:
                cost[i, 0] = cost[i - 1, 0] + 1
                op[i, 0] = OP_HYP_WORD
                continue
            best = INFINITY
            best_op = OP_UNDEF
            if w == ref[j - 1]:
                c = cost[i - 1, j - 1]
                o = OP_MATCH
            else:
                c = cost[i - 1, j - 1] + 1
                o = OP_SUB
            if best > c:
                best = c
                best_op = o
            c = cost[i - 1, j] + 1
            if best > c:
                best = c
                best_op = OP_HYP_WORD
            c = cost[i, j - 1] + 1
            if best > c:
                best = c
                best_op = OP_REF_WORD
            cost[i, j] = best
            op[i, j] = best_op
    return int(cost[n, m])


def _alignment(op: Any, n: int, m: int, trace: Any, align: Any, hyp_err: Any, ref_err: Any) -> None:
    """From the operations of the optimal path: ``align[r]`` = hypothesis position aligned
    with (or just before) reference word ``r``; cumulative error counts of both sides
    (``hyp_err[k]`` = wrong hypothesis words before position ``k``)."""
    k = 0
    i = n
    j = m
    while i > 0 or j > 0:
        o = op[i, j]
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
            raise ValueError("TER: the optimal path left the beam")
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


def _shifted(words: Any, start: int, length: int, target: int, out: Any) -> None:
    """``words`` with the block ``[start, start + length)`` moved to ``target``, as
    sacrebleu's ``_perform_shift`` does it: the block goes before ``target`` when that lies
    outside the block, and a target inside the block (or at its end) moves the block right
    by ``target - start`` words."""
    n = words.shape[0]
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


def _common_prefix(a: Any, b: Any) -> int:
    n = a.shape[0]
    p = 0
    while p < n and a[p] == b[p]:
        p += 1
    return p


def _pair_edits(hyp: Any, ref: Any) -> int:
    """Shifts plus the beam edit distance after them (sacrebleu's ``translation_edit_rate``)."""
    n: int = hyp.shape[0]
    m: int = ref.shape[0]
    if m == 0:
        return n
    words = hyp.copy()
    cand = np.empty(n, dtype=hyp.dtype)
    cost = np.empty((n + 1, m + 1), dtype=np.int64)
    op = np.empty((n + 1, m + 1), dtype=np.int8)
    scratch_cost = np.empty((n + 1, m + 1), dtype=np.int64)
    scratch_op = np.empty((n + 1, m + 1), dtype=np.int8)
    for j in range(m + 1):
        cost[0, j] = j
        op[0, j] = OP_REF_WORD
    ratio = m / n if n > 0 else 1.0
    beam = _beam_width(ratio)
    trace = np.empty(n + m, dtype=np.int8)
    align = np.empty(m, dtype=np.int64)
    hyp_err = np.empty(n + 1, dtype=np.int64)
    ref_err = np.empty(m + 1, dtype=np.int64)

    distance = _fill_rows(words, ref, cost, op, 0, ratio, beam)
    shifts = 0
    checked = 0
    while True:
        _alignment(op, n, m, trace, align, hyp_err, ref_err)
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
                while words[sh + length] == ref[sr + length] and length < MAX_SHIFT_SIZE:
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
                            _shifted(words, sh, length, target, cand)
                            p = _common_prefix(cand, words)
                            if p == n:
                                d = distance
                            else:
                                for j in range(m + 1):
                                    scratch_cost[p, j] = cost[p, j]
                                d = _fill_rows(cand, ref, scratch_cost, scratch_op, p, ratio, beam)
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
        _shifted(words, best_start, best_len, best_target, cand)
        p = _common_prefix(cand, words)
        for x in range(n):
            words[x] = cand[x]
        distance = _fill_rows(words, ref, cost, op, p, ratio, beam)
    return int(shifts + distance)


def _batch_edits(hyp_ids: Any, hyp_off: Any, ref_ids: Any, ref_off: Any, out: Any) -> None:
    for k in range(out.shape[0]):
        out[k] = _pair_edits(hyp_ids[hyp_off[k]:hyp_off[k + 1]], ref_ids[ref_off[k]:ref_off[k + 1]])


# --------------------------------------------------------------------------- compilation

_HELPERS = (_beam_width, _fill_rows, _alignment, _shifted, _common_prefix, _pair_edits)
_SIGNATURE = "void(int32[::1], int64[::1], int32[::1], int64[::1], int64[::1])"
_LOCK = threading.Lock()
_STATE: dict[str, Any] = {}


def numba_cache_dir(package_dir: Path) -> Path | None:
    """Where compiled code is cached: None for numba's default (``__pycache__`` beside the
    source) when that folder is writable, else ``<user cache>/numba``."""
    pycache = package_dir / "__pycache__"
    target = pycache if pycache.is_dir() else package_dir
    if os.access(target, os.W_OK):
        return None
    from mteval_gui.paths import user_cache_dir

    return user_cache_dir() / "numba"


def _compile() -> Callable[..., None]:
    import numba
    from numba.extending import register_jitable

    for fn in _HELPERS:
        register_jitable(fn)
    config: Any = numba.config
    previous = config.CACHE_DIR
    cache_dir = None if previous else numba_cache_dir(Path(__file__).resolve().parent)
    if cache_dir is not None:
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
            config.CACHE_DIR = str(cache_dir)  # read when the dispatcher locates its cache
        except OSError:
            pass  # numba's own per-user folder is then tried
    try:
        compiled: Callable[..., None] = numba.njit(_SIGNATURE, cache=True, nogil=True)(_batch_edits)
        return compiled
    finally:
        config.CACHE_DIR = previous


def kernel() -> Callable[..., None] | None:
    """The compiled batch kernel (compiled or loaded from the cache once per process), or
    None when numba is not installed."""
    with _LOCK:
        if "kernel" not in _STATE:
            try:
                _STATE["kernel"] = _compile()
                _STATE["implementation"] = "numba"
            except ImportError as exc:
                _STATE["kernel"] = None
                _STATE["implementation"] = "sacrebleu"
                _STATE["reason"] = f"numba is not available ({exc})"
        run: Callable[..., None] | None = _STATE["kernel"]
        return run


def implementation() -> str:
    """``"numba"`` (this module's compiled kernel) or ``"sacrebleu"`` (its pure-Python code)."""
    kernel()
    return str(_STATE["implementation"])


def fallback_reason() -> str | None:
    """Why sacrebleu's code counts the edits (None when the kernel does)."""
    kernel()
    return _STATE.get("reason")


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
    out = np.zeros(len(pairs), dtype=np.int64)
    run(np.array(hyp_ids, dtype=np.int32), np.array(hyp_off, dtype=np.int64),
        np.array(ref_ids, dtype=np.int32), np.array(ref_off, dtype=np.int64), out)
    return [int(x) for x in out]
