"""Ewe (ewe) evaluation standard: orthography profile and the ÈwéBench Ewe quality heuristic."""
