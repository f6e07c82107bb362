"""Character diff of output against reference."""

from mteval_gui.app.diff import DELETE_STYLE, INSERT_STYLE, char_diff, diff_html, similarity


def test_char_diff_marks_substituted_diacritic():
    ops = char_diff("pimohtêw", "pimohtew")
    assert [(o.kind, o.reference, o.output) for o in ops] == [
        ("equal", "pimoht", "pimoht"), ("replace", "ê", "e"), ("equal", "w", "w")]


def test_nfc_before_comparison():
    # "ê" decomposed in the output is the same character as the precomposed one
    assert [o.kind for o in char_diff("pimohtêw", "pimohte\u0302w")] == ["equal"]


def test_diff_html_escapes_and_colours():
    h = diff_html("a<b", "a<c d")
    assert h == (f'a&lt;<span style="{DELETE_STYLE}">b</span>'
                 f'<span style="{INSERT_STYLE}">c d</span>')


def test_similarity():
    assert similarity("", "") == 1.0
    assert similarity("abcd", "abcf") == 0.75
