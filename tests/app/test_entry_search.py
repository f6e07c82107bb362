"""The entries text filter: the block index finds exactly what a plain casefolded scan finds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mteval_gui.app import entry_frame
from mteval_gui.app.entry_frame import EntryFilter, EntryFrame, RunColumns, SearchIndex, filter_mask

WORDS = ("Straße", "STRASSE", "strasse", "ﬁsh", "FISH", "ΣΟΦΟΣ", "σοφος", "ὈΔΥΣΣΕΎΣ", "nipâw", "nipa\u0302w",
         "NIPÂW", "ᓃᐹᐤ", "ᐊᑎᒼ", "ɖevi", "Ɖevi", "ŋkeke", "Ŋ", "İstanbul", "i̇stanbul", "ǅ", "ǆemal", "𐐀𐐨", "a\x01b",
         "the", "dog", "a", "é", "e\u0301", "日本語", "語", "x\ny", "kinosêw", "sîsîp", "ŉ", "ﬀ", "ss", "ß",
         "a\u00a0b", "tab\tdog", "the  dog", "ᓃᐹᐤ\u2009ᐊᑎᒼ")
QUERIES = ("strasse", "STRASSE", "Straße", "ß", "ss", "fish", "ﬁsh", "fi", "σοφοσ", "ΣΟΦΟΣ", "σοφος", "ὀδυσσεύσ",
           "nipâw", "nipa\u0302w", "â", "ᓃᐹᐤ ᐊᑎᒼ", "ᐤ", "ɖ", "Ɖevi", "ŋkeke", "i̇", "istanbul", "ǆ", "ǅ", "𐐨",
           "the dog", "dog a", "é", "e\u0301", "日本", "x\ny", "\n", "\x00", "w\x00", "zzqq", "a", "e", "kinosêw sîsîp",
           "ʼn", "ff", "ᐊ", "ts", "e ", "\x01", "a\x01")


def _obj(values) -> np.ndarray:
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 7)))


def _frame(n: int, seed: int = 3) -> EntryFrame:
    rng = random.Random(seed)
    frame = EntryFrame("c", _obj([f"e{i}" for i in range(n)]), _obj([_sentence(rng) for _ in range(n)]),
                       _obj([None if i % 7 == 0 else _sentence(rng) for i in range(n)]), np.full(n, np.nan))
    for r in ("a", "b"):
        frame.runs.append(RunColumns(r, r, _obj([_sentence(rng) for _ in range(n)]), _obj([None] * n)))
    return frame


def _plain_scan(frame: EntryFrame, text: str) -> list[int]:
    """The filter as it was: the casefolded joined texts of each row, tested one by one."""
    needle = text.strip().casefold()
    out = []
    for i in range(len(frame)):
        parts = [frame.source[i], frame.reference[i], *(r.predicted[i] for r in frame.runs)]
        if needle in "\x00".join("" if v is None else str(v) for v in parts).casefold():
            out.append(i)
    return out


@pytest.fixture(scope="module")
def frame() -> EntryFrame:
    return _frame(1500)


@pytest.fixture(scope="module")
def index(frame: EntryFrame) -> SearchIndex:
    built = SearchIndex(frame.search_text(None), rows_per_block=16, bits=1 << 10, frequent_share=0.05,
                        max_frequent=24)
    built.build()
    return built


@pytest.mark.parametrize("query", QUERIES)
def test_indexed_search_finds_what_the_scan_finds(frame: EntryFrame, index: SearchIndex, query: str) -> None:
    assert index.ready
    expected = _plain_scan(frame, query)
    needle = query.strip().casefold()
    assert np.flatnonzero(index.matches(needle)).tolist() == expected
    index.use_index = False
    try:
        assert np.flatnonzero(index.matches(needle)).tolist() == expected
    finally:
        index.use_index = True


def test_filter_mask_uses_the_frame_index_and_agrees_with_the_scan(frame: EntryFrame) -> None:
    idx = frame.search_index(wait=True)
    assert idx.ready and idx.nbytes > 0
    for query in QUERIES:
        assert np.flatnonzero(filter_mask(frame, EntryFilter(text=query))).tolist() == _plain_scan(frame, query)


def test_casefolding_examples() -> None:
    frame = _frame(0)
    frame = EntryFrame("c", _obj(["1", "2", "3", "4"]), _obj(["Große Straße", "GROSSE STRASSE", "ﬁne", "ὈΔΥΣΣΕΎΣ"]),
                       _obj([None, "x", None, "nipa\u0302w"]), np.full(4, np.nan))
    index = SearchIndex(frame.search_text(None), rows_per_block=2, bits=1 << 8, frequent_share=0.25)
    index.build()
    def hits(q: str) -> list[int]:
        return np.flatnonzero(index.matches(q.casefold())).tolist()
    assert hits("straße") == [0, 1]
    assert hits("grosse") == [0, 1]
    assert hits("FINE") == [2]
    assert hits("ὀδυσσεύς") == [3]
    assert hits("nipâw") == []  # no normalisation: the stored text is decomposed
    assert hits("a\u0302") == [3]
    assert hits("\x00x") == [1]  # source and reference are one text, NUL between them


def test_frequent_ngrams_get_exact_bitmaps() -> None:
    rows = _obj(["abc", "xabcx", "zzz", "ab", "ABC".casefold(), "b c", "", "abcabc"])
    index = SearchIndex(rows, rows_per_block=2, bits=1 << 8, frequent_share=0.5, max_frequent=10)
    index.build()
    # "b" is in 6 of 8 rows, "a", "c" and "ab" in 5, "bc" and "abc" in 4: at least half of the rows
    assert index.frequent_grams() == [b"a", b"ab", b"abc", b"b", b"bc", b"c"]
    cand = index.candidates("abc")
    assert cand is not None and cand[1] is True
    assert np.flatnonzero(cand[0]).tolist() == [0, 1, 4, 7]
    assert np.flatnonzero(index.matches("abc")).tolist() == [0, 1, 4, 7]
    assert np.flatnonzero(index.matches("zz")).tolist() == [2]
    assert np.flatnonzero(index.matches("x\nz")).tolist() == []  # across two rows
    assert np.flatnonzero(index.matches("bca")).tolist() == [7]


def test_rare_query_reads_only_candidate_blocks() -> None:
    rows = _obj([f"row {i} {'needle' if i == 700 else 'hay'}" for i in range(1000)])
    index = SearchIndex(rows, rows_per_block=10, bits=1 << 12, frequent_share=0.5)
    index.build()
    cand = index.candidates("needle")
    assert cand is not None and cand[1] is False
    assert 10 <= int(cand[0].sum()) <= 50  # the block of row 700, and a few hash collisions at most
    assert bool(cand[0][700])
    assert np.flatnonzero(index.matches("needle")).tolist() == [700]


def test_other_filters_restrict_the_text_search() -> None:
    frame = EntryFrame("c", _obj(["1", "2", "3"]), _obj(["dog", "dog", "cat"]), _obj([None, None, None]),
                       np.array([1.0, 2.0, 1.0]))
    assert np.flatnonzero(filter_mask(frame, EntryFilter(text="DOG", difficulties=frozenset({2})))).tolist() == [1]


def test_large_frames_index_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entry_frame, "INDEX_MIN_ROWS", 100)
    small, big = _frame(50), _frame(300)
    filter_mask(small, EntryFilter(text="dog"))
    filter_mask(big, EntryFilter(text="dog"))
    assert small.search_index(start=False)._thread is None
    assert big.search_index(start=False).wait(60)


def test_a_refreshed_frame_keeps_the_search_of_the_same_texts() -> None:
    frame = _frame(40)
    index = frame.search_index(wait=True)
    same = EntryFrame("c", frame.entry_ids, frame.source, frame.reference, frame.difficulty,
                      runs=[RunColumns(r.run_id, r.label, r.predicted, r.error) for r in frame.runs])
    same.share_search(frame)
    assert same.search_index(start=False) is index
    other = EntryFrame("c", frame.entry_ids, frame.source, frame.reference, frame.difficulty,
                       runs=[RunColumns(r.run_id, r.label, r.predicted.copy(), r.error) for r in frame.runs])
    other.share_search(frame)
    assert other.search_index(start=False) is not index


def test_ngrams_across_two_rows_are_not_indexed() -> None:
    rows = _obj(["ac", "bc", "cc", "dc", "c\nd"])
    index = SearchIndex(rows, rows_per_block=2, bits=1 << 8, frequent_share=0.5)
    index.build()
    assert b"c\n" not in index.frequent_grams()
    assert np.flatnonzero(index.matches("c\n")).tolist() == [4]
    assert np.flatnonzero(index.matches("c\nd")).tolist() == [4]
    assert np.flatnonzero(index.matches("c")).tolist() == [0, 1, 2, 3, 4]


def _old_view_order(values: np.ndarray, descending: bool) -> list[int]:
    missing = np.isnan(values)
    keys = np.where(missing, 0.0, values)
    order = np.argsort(-keys if descending else keys, kind="stable")
    return np.concatenate([order[~missing[order]], order[missing[order]]]).tolist()


@pytest.mark.parametrize("descending", [False, True])
def test_metric_sort_keeps_ties_in_row_order_and_missing_values_last(descending: bool) -> None:
    from mteval_gui.app.entry_frame import view_order

    values = np.array([0.5, np.nan, 0.0, -0.0, 1.0, 0.5, np.nan, np.inf, -np.inf, 0.5])
    frame = EntryFrame("c", _obj([str(i) for i in range(10)]), _obj(["x"] * 10), _obj([None] * 10), values.copy())
    expected = [8, 2, 3, 0, 5, 9, 4, 7, 1, 6] if not descending else [7, 4, 0, 5, 9, 2, 3, 8, 1, 6]
    assert view_order(frame, EntryFilter(), values, descending).tolist() == expected
    assert _old_view_order(values, descending) == expected
    rng = np.random.default_rng(5)
    big = rng.integers(0, 20, 5000).astype(float)
    big[rng.random(5000) < 0.1] = np.nan
    frame = EntryFrame("c", _obj([str(i) for i in range(5000)]), _obj(["x"] * 5000), _obj([None] * 5000), big)
    assert view_order(frame, EntryFilter(), big, descending).tolist() == _old_view_order(big, descending)
    shown = view_order(frame, EntryFilter(difficulties=frozenset({3, 4})), big, descending)
    rows = np.flatnonzero(np.isin(big, [3.0, 4.0]))
    assert shown.tolist() == rows[_old_view_order(big[rows], descending)].tolist()


@pytest.mark.parametrize("with_separator", [False, True])
def test_row_texts_are_the_casefolded_joined_columns(with_separator: bool) -> None:
    from mteval_gui.app.entry_frame import _joined_rows

    rng = random.Random(11)
    words = [w for w in WORDS if "\x01" not in w] + (["a\x01b"] if with_separator else [])
    cols = [_obj([rng.choice([None, *words]) for _ in range(25_000)]) for _ in range(3)]
    expected = ["\x00".join("" if v is None else v for v in row).casefold() for row in zip(*cols, strict=True)]
    assert _joined_rows(cols).tolist() == expected


def test_the_search_text_is_built_when_first_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entry_frame, "INDEX_MIN_ROWS", 1_000)
    small = _frame(200)
    index = small.search_index()
    assert index._rows is None and index._thread is None  # nothing built for a small corpus
    assert np.flatnonzero(filter_mask(small, EntryFilter(text="Dog"))).tolist() == _plain_scan(small, "Dog")
    assert index._rows is not None
    big = _frame(1_200)
    started = big.search_index()
    assert started._thread is not None  # rows and index in the background
    assert np.flatnonzero(filter_mask(big, EntryFilter(text="ŋkeke"))).tolist() == _plain_scan(big, "ŋkeke")
    assert started.wait(60)


NEEDLES = (" dog", "dog ", " the dog ", "the  dog", "the dog", "dog\ta", "tab\tdog", "a\u00a0b", "a b", "ss ß", "ᐤ ᐊ",
           "ᓃᐹᐤ\u2009ᐊᑎᒼ", "ᓃᐹᐤ ᐊᑎᒼ", "w s", "e\u0301 日", "dog a the", "a a a", "g t", "zzqq dog", "\x00the", "dog",
           "og", "ᐹ", "ss", "straße", "the\x00")


@pytest.mark.parametrize("needle", NEEDLES)
def test_needles_with_white_space_find_what_the_scan_finds(frame: EntryFrame, index: SearchIndex, needle: str) -> None:
    """The word index narrows needles of several words (any white space, at the ends too) without missing a row."""
    expected = [i for i, row in enumerate(index.rows.tolist()) if needle in row]
    assert np.flatnonzero(index.matches(needle)).tolist() == expected


def test_a_one_word_needle_is_answered_by_the_rows_of_its_words() -> None:
    rows = _obj(["the dog\x00atim", "hotdog stand", "dogs", "a do g", "", "x\u00a0dog"])
    index = SearchIndex(rows, rows_per_block=2, bits=1 << 8, frequent_share=1.0)
    index.build()
    words = index._words
    assert words is not None
    # a no-break space is white space, as for str.split
    assert sorted(words.vocabulary) == ["a", "atim", "do", "dog", "dogs", "g", "hotdog", "stand", "the", "x"]
    found = words.rows_with("dog", len(rows))
    assert found is not None and found[1] is True  # exact: no row is tested
    assert np.flatnonzero(found[0]).tolist() == [0, 1, 2, 5]
    assert np.flatnonzero(index.matches("dog")).tolist() == [0, 1, 2, 5]
    pair = words.rows_with("the dog", len(rows))
    assert pair is not None and pair[1] is False and np.flatnonzero(pair[0]).tolist() == [0]
    assert np.flatnonzero(index.matches("dog atim")).tolist() == []  # NUL between them, not a space
    assert np.flatnonzero(index.matches("dog\x00atim")).tolist() == [0]
    assert np.flatnonzero(index.matches("do g")).tolist() == [3]
