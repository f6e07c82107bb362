"""The built-in metrics, declared exactly like language plugins (``id`` + ``"module:Class"``).

Importing this module only records references; nothing is imported until a metric is
resolved. Order matters only for ``prepare``: analyzers first (they publish helpers in
``context.shared`` that code-switching and terminology use).
"""

from __future__ import annotations

from mteval_gui.scoring.plugins import BUILTIN_METRICS, builtin

_S = "mteval_gui.scoring.metrics"

if not BUILTIN_METRICS:
    # structural and semantic families first: they fill context.shared in prepare()
    builtin("core.fst", f"{_S}.structural:FstAcceptanceMetric")
    builtin("core.morph", f"{_S}.structural:MorphologicalAccuracyMetric")
    builtin("core.ortho", f"{_S}.structural:OrthographicAccuracyMetric")
    # surface
    builtin("core.exact", f"{_S}.surface:ExactMatchMetric")
    builtin("core.equivalent", f"{_S}.surface:EquivalentMatchMetric")
    builtin("core.chrf", f"{_S}.surface:ChrfMetric")
    builtin("core.bleu", f"{_S}.surface:BleuMetric")
    builtin("core.ter", f"{_S}.surface:TerMetric")
    builtin("core.length_ratio", f"{_S}.surface:LengthRatioMetric")
    # behavioural
    builtin("core.code_switching", f"{_S}.behavioural:CodeSwitchingMetric")
    builtin("core.hallucination", f"{_S}.behavioural:HallucinationMetric")
    builtin("core.terminology", f"{_S}.behavioural:TerminologyMetric")
    builtin("core.consistency", f"{_S}.behavioural:ConsistencyMetric")
    # compliance
    builtin("core.compliance", f"{_S}.compliance:ComplianceMetric")
    # semantic (heavy: opt-in, see runner)
    builtin("core.comet", f"{_S}.comet:CometMetric")
    builtin("core.embedding_semantic", f"{_S}.embedding:EmbeddingSemanticMetric")
