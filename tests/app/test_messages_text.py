"""The core's English messages (import defects) rendered in the interface language through the
application's catalog templates: a rendered text is matched back to its template."""

from __future__ import annotations

from mteval_gui.app.messages import localized_text


def test_a_rendered_defect_is_written_again_from_its_translation():
    assert localized_text("duplicate id 'a' (first at line 2)", "fr") == "identifiant 'a' en double (déjà à la ligne 2)"
    assert localized_text("missing required column 'source' (columns: id, text)", "fr") == \
        "colonne obligatoire « source » absente (colonnes : id, text)"
    assert localized_text("empty source", "fr") == "source vide"


def test_english_and_unknown_texts_are_unchanged():
    assert localized_text("empty source", "en") == "empty source"
    assert localized_text("empty source", None) == "empty source"
    assert localized_text("a message no template renders", "fr") == "a message no template renders"
    # a template matches the whole text, not a part of it
    assert localized_text("empty source, and more", "fr") == "empty source, and more"


def test_a_miss_names_what_it_was_compared_with_not_a_match():
    from mteval_gui.app.entry_review import verdict_html
    from mteval_gui.domain.details import Verdict

    names = {"matched": "matched", "closest": "compared with"}
    miss = verdict_html("Linter", Verdict(verdict="MISS", matched="reference"), {}, field_names=names)
    hit = verdict_html("Linter", Verdict(verdict="EQUIVALENT", matched="variant 1"), {}, field_names=names)
    assert "<i>compared with</i>: reference" in miss and "matched" not in miss
    assert "<i>matched</i>: variant 1" in hit
