"""Translatable messages in details: rendering with a catalog, English fallback, localized details."""

from __future__ import annotations

from mteval_gui.domain.messages import localized, msg, render

CATALOG = {"missing: {words}": "il manque : {words}", "; ": " ; ", "{n} of {total}": "{n} sur {total}",
           "broken {x}": "cassé {y}"}


def test_english_text_is_the_template_formatted_with_its_arguments():
    m = msg("{parts}", parts=[msg("missing: {words}", words="atim, nipâw"), msg("score {s:.2f}", s=0.5)])
    assert m.text() == "missing: atim, nipâw; score 0.50"
    assert m.to_json() == {"template": "{parts}", "args": {"parts": [
        {"template": "missing: {words}", "args": {"words": "atim, nipâw"}},
        {"template": "score {s:.2f}", "args": {"s": 0.5}}]}}


def test_a_catalog_translates_each_template_and_the_list_separator():
    m = msg("{parts}", parts=[msg("missing: {words}", words="atim"), msg("{n} of {total}", n=1, total=3)])
    assert m.text(CATALOG) == "il manque : atim ; 1 sur 3"


def test_a_template_missing_from_the_catalog_or_a_translation_that_does_not_fit_is_english():
    assert render(msg("extraneous: {words}", words="mistik").to_json(), CATALOG) == "extraneous: mistik"
    assert render(msg("broken {x}", x="a").to_json(), CATALOG) == "broken a"
    m = msg("{parts}", parts=[msg("missing: {words}", words="atim"), msg("extraneous: {words}", words="mistik")])
    assert m.text(CATALOG) == "il manque : atim ; extraneous: mistik"


def test_localized_replaces_fields_with_messages_and_drops_the_messages():
    detail = {"verdict": "MISS", "explanation": "missing: atim", "explanation_msg": msg("missing: {words}",
              words="atim").to_json(), "lines": ["1 of 2", "x"],
              "lines_msg": [msg("{n} of {total}", n=1, total=2).to_json(), msg("x").to_json()],
              "pairs": [{"note": "1 of 3", "note_msg": msg("{n} of {total}", n=1, total=3).to_json()}]}
    assert localized(detail, CATALOG) == {"verdict": "MISS", "explanation": "il manque : atim",
                                          "lines": ["1 sur 2", "x"], "pairs": [{"note": "1 sur 3"}]}
    assert localized(detail, None) == {"verdict": "MISS", "explanation": "missing: atim", "lines": ["1 of 2", "x"],
                                       "pairs": [{"note": "1 of 3"}]}
