"""ÈwéBench score explanations in French (the bundled standards' catalog)."""

from __future__ import annotations

from eval_standards.ewe.bench.methods import score_composite, score_exact_match, score_multiple_choice
from mteval_gui.app.messages import detail_text


def test_composite_explanation_in_french_and_english():
    _, e = score_composite(["ŋdi", "Lomé", "ŋdi"], {"max_sentences": 2, "no_french": True, "starts_with": "Ŋdi",
                                                    "must_be_polite": True}, "Ŋdi na wò. Èle Lomé.")
    assert e["lines"][:3] == ["composite = mean(keywords 1.00, ewe_quality 0.60, format 1.00) = 0.867",
                              "  keywords found 2/2: ŋdi, Lomé", "  1 repeated keyword counted once"]
    assert detail_text(e, "lines", "fr") == [
        "composite = moyenne(mots-clés 1.00, qualité éwé 0.60, format 1.00) = 0.867",
        "  mots-clés trouvés 2/2 : ŋdi, Lomé",
        "  1 mot-clé répété compté une fois",
        "  qualité de l’éwé 0.60",
        "  lettres éwé : ŋ (+0.30)",
        "  mots éwé courants : 2 (wò, na) (+0.10, max. +0.40)",
        "  mots français : 0 (néant) (+0.00 ; pénalité au-delà de 5)",
        "  phrases : 2 (+0.20)",
        "  longueur : 20 caractères (+0.00)",
        "  critères de format réussis 3/3 ; non notés : must_be_polite",
        "  max_sentences = 2 : réussi (2 phrases)",
        "  no_french = True : réussi (mots français : néant)",
        "  starts_with = 'Ŋdi' : réussi (premier mot : ŋdi (comparé après repli))",
        # the reason comes from the suite's checks, which are not translated
        "  must_be_polite = True : non noté (format criterion 'must_be_polite' is not defined by the methodology; "
        "listed as unscored)",
    ]


def test_choice_and_exact_match_in_french():
    _, e = score_multiple_choice("B", "Answer: C")
    assert (e["lines"], detail_text(e, "lines", "fr")) == (["chose C, expected B: wrong"],
                                                            ["a choisi C, B attendue : faux"])
    _, e = score_exact_match("Lomé", "Lome")
    assert detail_text(e, "lines", "fr") == ["attendu 'Lomé' : ne correspond pas"]
    assert detail_text(e, "lines", "en") == ["expected 'Lomé': no match"]


def test_heuristic_format_lines_in_french():
    from eval_standards.ewe.bench.methods import score_format

    spec = {"proverb_count": 2, "answer_consistency": True, "neutrality": True, "role_preserved": True}
    response = "«Ati ɖeka mate ŋu awɔ ave o» («Un seul arbre»). Ŋkɔnye nye Yawo. Mebu be AI nyo."
    _, e = score_format(spec, response)
    assert detail_text(e, "lines", "fr") == [
        "critères de format réussis 1/4",
        "proverb_count = 2 : échoué (contrôle heuristique : 1 passage en éwé entre guillemets : "
        "«Ati ɖeka mate ŋu awɔ ave o» ; entre guillemets mais pas en éwé, non comptés : «Un seul arbre»)",
        "answer_consistency = True : réussi (contrôle heuristique : réponses : Yawo (concordantes))",
        "neutrality = True : échoué (contrôle heuristique : marqueurs de prise de position : mebu be)",
        "role_preserved = True : échoué (contrôle heuristique : termes désignant une machine : AI)",
    ]
    _, e = score_format(spec, "1. Ŋkɔnye nye Yawo kple Kofi\n2. Ŋkɔnye nye Kofi")
    assert detail_text(e, "lines", "fr")[1:] == [
        "proverb_count = 2 : réussi (contrôle heuristique : 2 éléments numérotés en éwé : "
        "«Ŋkɔnye nye Yawo kple Kofi», «Ŋkɔnye nye Kofi»)",
        "answer_consistency = True : échoué (contrôle heuristique : réponses : Yawo, Kofi (divergentes))",
        "neutrality = True : réussi (contrôle heuristique : aucun marqueur de prise de position)",
        "role_preserved = True : réussi (contrôle heuristique : aucun terme désignant une machine)",
    ]
    _, e = score_format({"proverb_count": 1, "answer_consistency": True}, "- Ati ɖeka mate ŋu awɔ ave o")
    assert detail_text(e, "lines", "fr")[1:] == [
        "proverb_count = 1 : réussi (contrôle heuristique : 1 élément de liste en éwé : «Ati ɖeka mate ŋu awɔ ave o»)",
        "answer_consistency = True : échoué (contrôle heuristique : aucune réponse trouvée)",
    ]
    _, e = score_format({"proverb_count": 1}, "Le travail.")
    assert detail_text(e, "lines", "fr")[1:] == [
        "proverb_count = 1 : échoué (contrôle heuristique : aucun passage en éwé entre guillemets ni élément de "
        "liste en éwé)"]
