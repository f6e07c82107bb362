"""ÈwéBench, the LLM benchmark for Ewe, as a suite plugin (SPEC §10).

The framework (:mod:`mteval_gui.benchmarks`) reads the suite folder and the responses, decides
each test's status and computes category scores and the ÈwéScore; this module says what is
ÈwéBench's own: the ten categories and their weights, the test format
(:mod:`.model`), the six methods (:mod:`.methods`) and the Ewe data they use (the Ewe card's
look-alike folds and the editable word lists of :mod:`eval_standards.ewe.lexicon`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eval_standards.ewe.bench.methods import (
    score_composite,
    score_ewe_quality,
    score_exact_match,
    score_format,
    score_keywords,
    score_multiple_choice,
)
from eval_standards.ewe.bench.model import EweTest, check_test
from eval_standards.ewe.lexicon import EweLexicon, ewe_lexicon
from eval_standards.ewe.orthography import card_folds, use_card
from mteval_gui.benchmarks.suite import BenchmarkSuite, Explained, SuiteCategory
from mteval_gui.domain.benchmark import BenchTest, SuiteDefect
from mteval_gui.domain.card import LanguageCard
from mteval_gui.text import NORMALISATION_POLICY

CATEGORIES: tuple[SuiteCategory, ...] = (
    SuiteCategory("linguistic_comprehension", "Linguistic comprehension", 0.15, "Ling."),
    SuiteCategory("text_generation", "Text generation", 0.15, "Gen."),
    SuiteCategory("reasoning", "Reasoning", 0.12, "Reas."),
    SuiteCategory("translation", "Translation", 0.12, "Trans."),
    SuiteCategory("cultural_knowledge", "Cultural knowledge", 0.10, "Cult."),
    SuiteCategory("instruction_following", "Instruction following", 0.10, "Instr."),
    SuiteCategory("multi_turn", "Multi-turn", 0.08, "Multi"),
    SuiteCategory("agentic", "Agentic", 0.08, "Agent."),
    SuiteCategory("style_adaptation", "Style adaptation", 0.05, "Style"),
    SuiteCategory("robustness", "Robustness", 0.05, "Robust."),
)
# Category -> weight, in order of importance.
CATEGORY_WEIGHTS: dict[str, float] = {c.name: c.weight for c in CATEGORIES}
CATEGORY_TITLES: dict[str, str] = {c.name: c.title for c in CATEGORIES}

EWEBENCH_NORMALISATION = {
    **NORMALISATION_POLICY,
    "ewebench_exact_match": "match_key; trailing . ! ? … ignored; no look-alike folds",
    "ewebench_words": "NFC + casefold + Ewe card look-alike folds; whole words (letters, marks, digits; "
                      "internal hyphen/apostrophe kept)",
    "ewebench_length": "characters (code points, NFC) after stripping surrounding white space",
}

SCORING_RULES = """\
how tests are scored (methodology with the fixes of the specification):
  exact_match      equal after NFC, trimming, whitespace collapsing and casefolding; trailing
                   . ! ? … ignored; look-alike letters are not folded
  keywords         distinct expected keywords found as whole words (NFC, casefolded, Ewe
                   look-alike letters folded) / distinct expected keywords
  multiple_choice  the one letter chosen, read as a token (leading "B", "B)", "(B)", "B — ...",
                   "Answer: B", "Réponse : B", "Ŋuɖoɖo la nye B", "B est la bonne réponse"...);
                   letters inside words never count; letters offered together ("B or C",
                   "B/C") are all chosen; an echoed option list (A. ... / B. ...) chooses
                   nothing; several different letters score 0
  format           mean of the criteria that can be checked: contains_ewe (ɖ ɛ ɔ ƒ ŋ ɣ ʋ in
                   either case), min_length/max_length (characters), max_sentences,
                   max_word_count, list_item_count, numbered_list_items (exact counts),
                   starts_with (first words, folded), no_french (no word of the French list),
                   has_pro_con (a word for each side: nyo/pour/pros..., vɔ̃/contre/cons...),
                   must_ask_clarification (a question mark), contains_function_call
                   true/false, markdown_elements table/header/list/bold; criteria the
                   suite does not define are listed as unscored; four heuristic checks
                   (marked "heuristic check"; evidence listed):
                   proverb_count    distinct Ewe quoted passages of 2+ words (else Ewe
                                    numbered items, else Ewe bullets) = N; not proverb-checked
                   answer_consistency  names after "Ŋkɔnye nye", "Nyee nye", "je m'appelle",
                                    "my name is"... (else lone names) found and all agree
                   neutrality       no stance marker (mebu be, le nye susu me, je pense que,
                                    à mon avis, I think... of data/stance_markers.tsv)
                   role_preserved   no machine term (IA, AI, modèle de langage, chatbot,
                                    ChatGPT... of data/machine_terms.tsv)
  ewe_quality      +0.3 Ewe letters, +0.05 per common Ewe word (max +0.4), -0.2 above 5 French
                   words, +0.2 two or more sentences, +0.1 more than 20 characters; clamped to 0..1
  composite        mean of keywords, ewe_quality and format
a test passes at 0.7; category score = mean x 100; a category without any response is
inactive (partial run) and leaves the ÈwéScore = sum(score x weight) / sum(active weights);
provider errors and missing responses score 0 and are listed; a test the suite leaves
unscorable (no expectation, no criterion that can be checked) is listed and left out of its
category's mean;
an empty response (no text, no function call) scores 0 whatever its method.
"""


@dataclass(frozen=True)
class EweResources:
    """What ÈwéBench scores with: the word lists and the Ewe card's folds."""

    lexicon: EweLexicon
    folds: dict[str, str]


class EweBench(BenchmarkSuite):
    name = "ewebench"
    title = "ÈwéBench"
    score_name = "ÈwéScore"
    run_id_prefix = "ewb"
    language = "ewe"
    categories = CATEGORIES
    scoring_rules = SCORING_RULES
    description = "Score ÈwéBench LLM suites for Ewe and compare models."
    limitations = (  # the methodology's "Known Limitations"
        "The Ewe quality heuristic is rule-based, not learned: it can miss valid Ewe or reward superficial "
        "patterns.",
        "Keyword matching does not account for synonyms or paraphrases.",
        "No human evaluation takes part in an automated run: ÈwéScore is an approximation.",
        "Tonal accuracy cannot be checked in written text (Ewe is tonal but rarely written with tone marks).",
    )
    reference_score_key = "ewe_score"  # EweBench's run_benchmark.py results files
    reference_version = "1.0.0"

    def check_test(self, raw: Any, *, category: str, file: str, line: int | None,
                   index: int) -> tuple[BenchTest | None, list[SuiteDefect]]:
        return check_test(raw, category=category, file=file, line=line, index=index)

    def prepare(self, card: LanguageCard | None = None) -> EweResources:
        use_card(card)  # the Ewe card the application looked up (None: the bundled one)
        return EweResources(ewe_lexicon(), card_folds())

    def score_test(self, test: BenchTest, response: str, tool_calls: Sequence[Any] | None,
                   resources: Any) -> Explained:
        lexicon = resources.lexicon if isinstance(resources, EweResources) else resources
        t = test if isinstance(test, EweTest) else EweTest.model_validate(test.model_dump())
        method = t.method
        if method == "exact_match":
            return score_exact_match(t.expected or "", response)
        if method == "multiple_choice":
            return score_multiple_choice(t.expected or "", response)
        if method == "keywords":
            return score_keywords(t.expected_keywords or [], response)
        if method == "format":
            fscore, expl = score_format(t.expected_format or {}, response, tool_calls, lexicon)
            return (fscore if fscore is not None else 0.0), expl
        if method == "ewe_quality":
            return score_ewe_quality(response, lexicon)
        # composite (check_test guarantees a known method here)
        return score_composite(t.expected_keywords or [], t.expected_format or {}, response, tool_calls, lexicon)

    def describe_resources(self, resources: Any) -> dict[str, Any]:
        return resources.lexicon.describe() if isinstance(resources, EweResources) else {}

    def normalisation(self, resources: Any) -> dict[str, Any]:
        folds = resources.folds if isinstance(resources, EweResources) else card_folds()
        return {**EWEBENCH_NORMALISATION, "folds": dict(folds)}


SUITE = EweBench()
