"""User-facing names of metrics, verdicts, tiers and caveats, translatable, with colours.

Every string goes through ``QCoreApplication.translate`` (context ``labels``) so the French
translation covers them.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale

from mteval_gui.app.metrics import describe
from mteval_gui.domain.judgments import ADEQUACY_LABELS, FLUENCY_LABELS
from mteval_gui.domain.metrics import MetricDescriptor
from mteval_gui.domain.score_keys import SCORE_KEYS
from mteval_gui.qt.i18n import QT_TRANSLATE_NOOP


def _t(text: str) -> str:
    return QCoreApplication.translate("labels", text)


# The built-in metrics' labels (``MetricInfo.label``), listed here so that the French
# translation covers them; a plugin's metric brings its own translations (``MetricInfo.labels``).
BUILTIN_METRIC_LABELS = (
    QT_TRANSLATE_NOOP("labels", "Exact"),
    QT_TRANSLATE_NOOP("labels", "Equivalent"),
    QT_TRANSLATE_NOOP("labels", "chrF++"),
    QT_TRANSLATE_NOOP("labels", "BLEU"),
    QT_TRANSLATE_NOOP("labels", "TER"),
    QT_TRANSLATE_NOOP("labels", "Length ratio"),
    QT_TRANSLATE_NOOP("labels", "FST acceptance"),
    QT_TRANSLATE_NOOP("labels", "Morphology"),
    QT_TRANSLATE_NOOP("labels", "Orthography"),
    QT_TRANSLATE_NOOP("labels", "COMET"),
    QT_TRANSLATE_NOOP("labels", "Semantic (embeddings)"),
    QT_TRANSLATE_NOOP("labels", "Code-switching"),
    QT_TRANSLATE_NOOP("labels", "Hallucination"),
    QT_TRANSLATE_NOOP("labels", "Terminology"),
    QT_TRANSLATE_NOOP("labels", "Consistency"),
    QT_TRANSLATE_NOOP("labels", "Compliance"),
)

# validation level -> (word shown beside a value, what it means)
_VALIDATION = {
    "external": (QT_TRANSLATE_NOOP("labels", "validated"),
                 QT_TRANSLATE_NOOP("labels", "Shown to agree with human judgments for this language.")),
    "proxy": (QT_TRANSLATE_NOOP("labels", "proxy"),
              QT_TRANSLATE_NOOP("labels", "Validated against human judgments for other languages, used here as a stand-in.")),  # noqa: E501
    "heuristic": (QT_TRANSLATE_NOOP("labels", "heuristic"),
                  QT_TRANSLATE_NOOP("labels", "Rules written from linguistic knowledge, not yet measured against human judgments.")),  # noqa: E501
    "unvalidated": (QT_TRANSLATE_NOOP("labels", "unvalidated"),
                    QT_TRANSLATE_NOOP("labels", "No evidence yet that it tracks quality for this language.")),
}

# The labels of the declared run-card ``scores`` keys (``ScoreKey.label``), listed here so that the
# French translation covers them (a test checks that every declared label is listed)
SCORE_LABELS = (
    QT_TRANSLATE_NOOP("labels", "Composite"),
    QT_TRANSLATE_NOOP("labels", "Tier"),
    QT_TRANSLATE_NOOP("labels", "chrF++"),
    QT_TRANSLATE_NOOP("labels", "BLEU"),
    QT_TRANSLATE_NOOP("labels", "TER"),
    QT_TRANSLATE_NOOP("labels", "Exact match"),
    QT_TRANSLATE_NOOP("labels", "Equivalent match"),
    QT_TRANSLATE_NOOP("labels", "FST acceptance"),
    QT_TRANSLATE_NOOP("labels", "Morphological accuracy"),
    QT_TRANSLATE_NOOP("labels", "Orthographic accuracy"),
    QT_TRANSLATE_NOOP("labels", "Semantic score"),
    QT_TRANSLATE_NOOP("labels", "COMET"),
    QT_TRANSLATE_NOOP("labels", "Code-switching"),
    QT_TRANSLATE_NOOP("labels", "Hallucination"),
    QT_TRANSLATE_NOOP("labels", "Terminology"),
    QT_TRANSLATE_NOOP("labels", "Consistency"),
    QT_TRANSLATE_NOOP("labels", "Compliance"),
    QT_TRANSLATE_NOOP("labels", "Length ratio"),
    QT_TRANSLATE_NOOP("labels", "Cost-adjusted"),
)
_SCORES = {k.name: k.label for k in SCORE_KEYS if k.label}

_TIERS = {
    "fluent": QT_TRANSLATE_NOOP("labels", "fluent"),
    "deployable": QT_TRANSLATE_NOOP("labels", "deployable"),
    "functional": QT_TRANSLATE_NOOP("labels", "functional"),
    "emerging": QT_TRANSLATE_NOOP("labels", "emerging"),
    "baseline": QT_TRANSLATE_NOOP("labels", "baseline"),
    "unscored": QT_TRANSLATE_NOOP("labels", "unscored"),
}

# what a speaker typically sees at each tier (LYSS §5): heuristic labels, confirmed only by speakers
_TIER_DESCRIPTIONS = {
    "fluent": QT_TRANSLATE_NOOP("labels", "Approaching competent human translation. Errors are rare and minor."),
    "deployable": QT_TRANSLATE_NOOP("labels", "Suitable for draft translation with human review. Most of the "
                                              "morphology is correct."),
    "functional": QT_TRANSLATE_NOOP("labels", "Recognisable to a speaker. The main grammatical categories are "
                                              "usually right; morphological errors are frequent."),
    "emerging": QT_TRANSLATE_NOOP("labels", "Some correct patterns begin to appear: training is helping, but the "
                                            "output is not reliable."),
    "baseline": QT_TRANSLATE_NOOP("labels", "Raw LLM output without language-specific support. The morphology is "
                                            "mostly hallucinated."),
    "unscored": QT_TRANSLATE_NOOP("labels", "No composite: not enough metrics produced a value."),
}


def tier_description(tier: str | None) -> str:
    """What a speaker typically sees at ``tier`` (LYSS §5), in the interface language."""
    text = _TIER_DESCRIPTIONS.get(tier or "unscored")
    return _t(text) if text else ""


TIER_COLOURS = {
    "fluent": "#1b7f3b",
    "deployable": "#3d8f2f",
    "functional": "#b58900",
    "emerging": "#c56a1b",
    "baseline": "#b03030",
    "unscored": "#777777",
}

VERDICT_COLOURS = {
    "EXACT": "#c8ecc8",
    "EXACT_MATCH": "#c8ecc8",
    "EQUIVALENT": "#dcf2c4",
    "VALID": "#dcf2c4",
    "GRAMMAR_ISSUES": "#f4ecc0",
    "PARTIAL": "#f6dfbe",
    "INCOMPLETE": "#f6dfbe",
    "MISS": "#f4cccc",
    "WRONG": "#f4cccc",
    "NO_OUTPUT": "#dddddd",
}

_CAVEATS = {
    "source_copy": (
        QT_TRANSLATE_NOOP("labels", "Source copied"),
        QT_TRANSLATE_NOOP(
            "labels",
            "At least half of the outputs are identical to their source: the system may not be translating at all.",
        ),
    ),
    "near_constant_output": (
        QT_TRANSLATE_NOOP("labels", "Near-constant output"),
        QT_TRANSLATE_NOOP(
            "labels", "One output is reused for many different sources: scores can look better than the system is."
        ),
    ),
    "length_deflation": (
        QT_TRANSLATE_NOOP("labels", "Outputs too short"),
        QT_TRANSLATE_NOOP("labels", "Outputs are much shorter than the references: content is probably missing."),
    ),
    "length_inflation": (
        QT_TRANSLATE_NOOP("labels", "Outputs too long"),
        QT_TRANSLATE_NOOP(
            "labels", "Outputs are much longer than the references: the system may add text or explanations."
        ),
    ),
    "small_sample": (
        QT_TRANSLATE_NOOP("labels", "Small sample"),
        QT_TRANSLATE_NOOP("labels", "Fewer than 30 entries: the scores and their confidence intervals are unreliable."),
    ),
    "errors_scored_empty": (
        QT_TRANSLATE_NOOP("labels", "Errors scored empty"),
        QT_TRANSLATE_NOOP(
            "labels",
            "Some entries failed or have no output; they count as empty outputs in every metric (never dropped).",
        ),
    ),
    "comet_language_not_covered": (
        QT_TRANSLATE_NOOP("labels", "COMET not reliable"),
        QT_TRANSLATE_NOOP(
            "labels", "The COMET model's encoder was not trained on the target language: its score says little."
        ),
    ),
    "comet_coverage_unknown": (
        QT_TRANSLATE_NOOP("labels", "COMET coverage unknown"),
        QT_TRANSLATE_NOOP("labels", "It is not known whether the COMET model covers the target language."),
    ),
    "wrong_language_output": (
        QT_TRANSLATE_NOOP("labels", "Wrong language"),
        QT_TRANSLATE_NOOP(
            "labels",
            "At least a fifth of the outputs are wholly in another language than the target (often the source): "
            "each counts as fully code-switched.",
        ),
    ),
    "embedding_blind_to_language": (
        QT_TRANSLATE_NOOP("labels", "Embeddings blind to language"),
        QT_TRANSLATE_NOOP(
            "labels",
            "Outputs are in another language or copy their source, and multilingual embeddings score them as "
            "similar anyway: the embedding similarity overstates these outputs.",
        ),
    ),
    "composite_not_enough_metrics": (
        QT_TRANSLATE_NOOP("labels", "Not enough metrics"),
        QT_TRANSLATE_NOOP(
            "labels",
            "The metrics with a value carry less than half of the composite profile's weight: there is no "
            "composite and no tier.",
        ),
    ),
    "fst_accepts_after_fold": (
        QT_TRANSLATE_NOOP("labels", "Accepted after folds"),
        QT_TRANSLATE_NOOP(
            "labels",
            "Some words are accepted by the analyzer only after the language's orthographic folds (e.g. macrons "
            "read as circumflexes): they count for morphology but against orthography.",
        ),
    ),
    "short_segments": (
        QT_TRANSLATE_NOOP("labels", "Short segments"),
        QT_TRANSLATE_NOOP(
            "labels",
            "The median reference has fewer than 4 tokens: BLEU says little on such segments and is left out of "
            "comparisons and correlations unless asked for.",
        ),
    ),
    "metric_coverage_differs": (
        QT_TRANSLATE_NOOP("labels", "Coverage differs"),
        QT_TRANSLATE_NOOP(
            "labels", "The compared runs were scored with different metrics: composites are not directly comparable."
        ),
    ),
}

# linter variant classes (Task B audit) -> what the class means, for tooltips
_VARIANT_CLASSES = {
    "LONG_VOWEL_MACRON": QT_TRANSLATE_NOOP(
        "labels", "Long vowels written with macrons (ā ē ī ō) where the other text has circumflexes (â ê î ô)."
    ),
    "ORTHOGRAPHIC": QT_TRANSLATE_NOOP(
        "labels",
        "Spelling convention: preverbs apart or hyphenated, fused preverbs, apostrophe and hyphen look-alikes, or another spelling with the same analysis.",  # noqa: E501 - one literal, as pyside6-lupdate extracts it
    ),
    "WORD_ORDER": QT_TRANSLATE_NOOP("labels", "The same words in another order."),
    "OPTIONAL_PARTICLE": QT_TRANSLATE_NOOP("labels", "A word present on one side only is an optional particle."),
    "LEMMA_SYNONYM": QT_TRANSLATE_NOOP("labels", "Synonymous lemmas with otherwise identical analyses."),
    "PROGRESSIVE_AMBIGUITY": QT_TRANSLATE_NOOP(
        "labels", "The output adds the progressive preverb ati- (English rarely decides the aspect)."
    ),
    "PROGRESSIVE_UNDERSPEC": QT_TRANSLATE_NOOP(
        "labels", "The output drops the progressive preverb ati- of the reference (not acceptable)."
    ),
    "INCLUSIVE_EXCLUSIVE": QT_TRANSLATE_NOOP("labels", "Inclusive versus exclusive 'we', everything else identical."),
    "VOWEL_LENGTH": QT_TRANSLATE_NOOP("labels", "Long-vowel marks dropped (not acceptable)."),
}

_REVIEW = {0: "", 1: QT_TRANSLATE_NOOP("labels", "rated"), 2: QT_TRANSLATE_NOOP("labels", "flagged"),
           3: QT_TRANSLATE_NOOP("labels", "half rated")}


def interface_language() -> str:
    """The interface language code ("en", "fr") the translators were installed for."""
    return QLocale().name().split("_")[0]


def metric_label(metric: str | MetricDescriptor) -> str:
    """A metric's label: the application's translation when it has one, else the plugin's own
    translation for the interface language, else the English label."""
    desc = describe(metric) if isinstance(metric, str) else metric
    translated = _t(desc.label)
    if translated != desc.label:
        return translated
    return desc.label_for(interface_language())


def validation_label(level: str | None) -> str:
    """The word shown beside a value for its validation level ("" for none)."""
    entry = _VALIDATION.get(level or "")
    return _t(entry[0]) if entry else (level or "")


def validation_explanation(level: str | None) -> str:
    entry = _VALIDATION.get(level or "")
    return _t(entry[1]) if entry else ""


def validation_labels() -> dict[str, str]:
    """Validation level -> its translated word."""
    return {level: validation_label(level) for level in _VALIDATION}


def score_label(key: str) -> str:
    label = _SCORES.get(key)
    return _t(label) if label else key.replace("_", " ")


def tier_label(tier: str | None) -> str:
    return _t(_TIERS.get(tier or "unscored", tier or "unscored"))


def pending_review_label() -> str:
    return _t(QT_TRANSLATE_NOOP("labels", "pending speaker review"))


def caveat_title(code: str) -> str:
    entry = _CAVEATS.get(code)
    return _t(entry[0]) if entry else code.replace("_", " ")


def caveat_explanation(code: str, message: str = "") -> str:
    """The general explanation of a caveat, followed by the run-specific message."""
    entry = _CAVEATS.get(code)
    general = _t(entry[1]) if entry else ""
    return "\n".join(p for p in (general, message) if p)


def review_label(status: int) -> str:
    text = _REVIEW.get(status, "")
    return _t(text) if text else ""


def verdict_colour(verdict: object) -> str | None:
    return VERDICT_COLOURS.get(str(verdict)) if verdict else None


_ADEQUACY = (
    QT_TRANSLATE_NOOP("labels", "None"),
    QT_TRANSLATE_NOOP("labels", "Little"),
    QT_TRANSLATE_NOOP("labels", "Much"),
    QT_TRANSLATE_NOOP("labels", "Most"),
    QT_TRANSLATE_NOOP("labels", "All"),
)
_FLUENCY = (
    QT_TRANSLATE_NOOP("labels", "Incomprehensible"),
    QT_TRANSLATE_NOOP("labels", "Disfluent"),
    QT_TRANSLATE_NOOP("labels", "Non-native"),
    QT_TRANSLATE_NOOP("labels", "Good"),
    QT_TRANSLATE_NOOP("labels", "Flawless"),
)


def adequacy_labels() -> dict[int, str]:
    return {k: _t(v) for k, v in ADEQUACY_LABELS.items()}


def fluency_labels() -> dict[int, str]:
    return {k: _t(v) for k, v in FLUENCY_LABELS.items()}


def variant_class_description(name: str) -> str:
    """What a linter variant class means ("" for a class without a description)."""
    text = _VARIANT_CLASSES.get(name)
    return _t(text) if text else ""


# workspace settings: key -> (label, help); the English text equals the settings model's
# title and description (a test checks it), the translation comes from the .ts file
_SETTINGS = {
    "analyzer_dir": (QT_TRANSLATE_NOOP("settings", 'Analyzer folder'),
        QT_TRANSLATE_NOOP("settings", "Folder with the installed analyzers, one sub-folder per language code (empty: the user data folder's analyzers folder).")),  # noqa: E501
    "analyzer_paths": (QT_TRANSLATE_NOOP("settings", 'Analyzer files'),
        QT_TRANSLATE_NOOP("settings", 'Analyzer files per language and kind ({lang: {strict|descriptive|generator: path}}); they win over the analyzer folder.')),  # noqa: E501
    "gloss_files": (QT_TRANSLATE_NOOP("settings", 'Gloss files'),
        QT_TRANSLATE_NOOP("settings", "Dictionaries of a language's semantic validator ({lang: [path, ...]}).")),  # noqa: E501
    "comet_model": (QT_TRANSLATE_NOOP("settings", 'COMET model'),
        QT_TRANSLATE_NOOP("settings", "Hugging Face id or local checkpoint (empty: the language card's choice, else wmt22-comet-da).")),  # noqa: E501
    "cluster": (QT_TRANSLATE_NOOP("settings", 'Ray cluster'),
        QT_TRANSLATE_NOOP("settings", "Scores the batches on a Ray cluster: 'local' starts one on this machine, else the head's address (HOST:6379); empty: this machine's processes. Needs the cluster extra.")),  # noqa: E501
    "default_reviewer": (QT_TRANSLATE_NOOP("settings", 'Default reviewer'),
        QT_TRANSLATE_NOOP("settings", 'Reviewer selected when the workspace opens.')),  # noqa: E501
    "attention_checks": (QT_TRANSLATE_NOOP("settings", 'Attention checks'),
        QT_TRANSLATE_NOOP("settings", 'Known-bad outputs shown among the entries each reviewer rates on the desktop in blind mode, per run (0: none); failed checks flag the reviewer in Validation.')),  # noqa: E501
    "repeated_items": (QT_TRANSLATE_NOOP("settings", 'Repeated items'),
        QT_TRANSLATE_NOOP("settings", 'Entries shown a second time to each reviewer rating on the desktop in blind mode, per run (0: none); ratings far apart flag the reviewer in Validation.')),  # noqa: E501
    "glossaries": (QT_TRANSLATE_NOOP("settings", 'Corpus glossaries'),
        QT_TRANSLATE_NOOP("settings", 'The glossary used for terminology, per corpus ({corpus_id: glossary_id}).')),  # noqa: E501
    "suite_folders": (QT_TRANSLATE_NOOP("settings", 'Benchmark suite folders'),
        QT_TRANSLATE_NOOP("settings", 'The folder of test files last opened for each benchmark suite ({suite: folder}).')),  # noqa: E501
}


def setting_label(key: str) -> str:
    pair = _SETTINGS.get(key)
    return QCoreApplication.translate("settings", pair[0]) if pair else key


def setting_help(key: str) -> str:
    pair = _SETTINGS.get(key)
    return QCoreApplication.translate("settings", pair[1]) if pair else ""


def setting_texts() -> dict[str, tuple[str, str]]:
    """The untranslated (label, help) per key, for the consistency test."""
    return dict(_SETTINGS)


# the built-in error-span categories (``ERROR_CATEGORIES``); a card's own show as their id
_ERROR_CATEGORIES = {
    "mistranslation": QT_TRANSLATE_NOOP("labels", "mistranslation"),
    "omission": QT_TRANSLATE_NOOP("labels", "omission"),
    "addition": QT_TRANSLATE_NOOP("labels", "addition"),
    "untranslated": QT_TRANSLATE_NOOP("labels", "untranslated"),
    "grammar": QT_TRANSLATE_NOOP("labels", "grammar"),
    "spelling": QT_TRANSLATE_NOOP("labels", "spelling"),
    "punctuation": QT_TRANSLATE_NOOP("labels", "punctuation"),
    "terminology": QT_TRANSLATE_NOOP("labels", "terminology"),
    "style": QT_TRANSLATE_NOOP("labels", "style"),
    "other": QT_TRANSLATE_NOOP("labels", "other"),
    "morphology": QT_TRANSLATE_NOOP("labels", "morphology"),
}


_SEVERITIES = {
    "minor": QT_TRANSLATE_NOOP("labels", "minor"),
    "major": QT_TRANSLATE_NOOP("labels", "major"),
    "critical": QT_TRANSLATE_NOOP("labels", "critical"),
}


def severity_label(severity: str) -> str:
    """The name shown for an error-span severity."""
    known = _SEVERITIES.get(severity)
    return _t(known) if known else severity


def span_term_labels() -> dict[str, str]:
    """Shown names of span severities and categories, keyed ``severity:ID`` and ``category:ID``
    (the review pane's labels: the span summary beside a speaker's spans is in the interface language)."""
    return {**{f"severity:{s}": severity_label(s) for s in _SEVERITIES},
            **{f"category:{c}": error_category_label(c) for c in _ERROR_CATEGORIES}}


def error_category_label(category: str) -> str:
    """The name shown for an error-span category id."""
    known = _ERROR_CATEGORIES.get(category)
    return _t(known) if known else category.replace("_", " ").replace("-", " ")


# What the bundled metrics measure (``MetricInfo.description``), listed here so that the French
# translation covers the Help glossary; a description without a translation is shown in English.
BUNDLED_METRIC_DESCRIPTIONS = (
    QT_TRANSLATE_NOOP("metric_descriptions", "Share of output words with at least one analysis from the strict HFST analyzer (case fallback: as written, first letter lowered, all lowered)."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Among output words whose lemma occurs in the reference's analyses (or the gold expected_morphology), the share with an analysis of the same lemma and tag set."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Share of output words without a violation of the card's orthography profile (alphabet, forbidden and look-alike characters, folds, digits in words, rules; with FST: accepted only by the descriptive analyzer = non-standard spelling)."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Share of entries whose output equals the reference after NFC, whitespace collapsing and casefolding."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Share of entries matching the reference or an accepted variant after the language's orthographic folds."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Character n-gram F-score with word bigrams (sacrebleu CHRF, word_order=2)."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Corpus BLEU (sacrebleu defaults). Reported for comparability, not in the composite."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Edits per reference word (sacrebleu TER). Reported, not in the composite."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Output length over reference length in characters; 1.0 is ideal. A diagnostic, not in the composite."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Share of output words that are source-language words (script or same-script lexical signal); 1.0 for an output wholly in another language than the target."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Length anomaly, repeated trigrams, invented numbers/names and source echo, weighted 0.4/0.3/0.2/0.1, over the entries with an output."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Hits over terms found in the source (per-entry terminology ∪ glossary); empty output misses every term."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "For source terms in ≥ 2 entries, the share of the modal accepted rendering, averaged over terms."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "0.6 placeholder integrity + 0.2 quote compliance + 0.2 casing compliance; a gate, not in the composite."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Learned MT metric (Unbabel COMET / AfriCOMET). Not calibrated for low-resource languages; reported for transparency and excluded from the composite."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Cosine similarity of multilingual-e5-small embeddings of source+output and source+reference, rescaled so that outputs shuffled onto other entries score 0 and identical outputs 1; semantic_score only where a card validates it."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Share of entries whose output is the reference or an acceptable Plains Cree variant of it (long vowels, preverb spelling, word order, optional particles, synonyms, ambiguity of 'we' and aspect)."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Meaning preservation from analyzer lemmas and a local Cree-English dictionary: EXACT_MATCH / VALID / GRAMMAR_ISSUES / PARTIAL / INCOMPLETE / WRONG / NO_OUTPUT."),  # noqa: E501
    QT_TRANSLATE_NOOP("metric_descriptions", "Rule-based Ewe-ness of the output: Ewe letters, common Ewe words, French words, sentences and length (SPEC §10). Not a translation-quality measure."),  # noqa: E501
)


def metric_description(text: str) -> str:
    """What a metric measures, in the interface language when the translation has it."""
    return QCoreApplication.translate("metric_descriptions", text) if text else ""
