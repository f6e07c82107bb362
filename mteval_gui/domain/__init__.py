"""Pydantic models of everything the application reads, stores and writes. No I/O, no Qt."""

from mteval_gui.domain.card import AnalyzerDecl, LanguageCard, MetricRef, OrthographyProfile
from mteval_gui.domain.corpus import Corpus, Entry, LanguagePair
from mteval_gui.domain.judgments import Judgment, Reviewer
from mteval_gui.domain.run import Output, Pricing, Run, RunMeta, Usage
from mteval_gui.domain.runcard import RunCard

__all__ = [
    "AnalyzerDecl", "Corpus", "Entry", "Judgment", "LanguageCard", "LanguagePair", "MetricRef",
    "OrthographyProfile", "Output", "Pricing", "Reviewer", "Run", "RunCard", "RunMeta", "Usage",
]
