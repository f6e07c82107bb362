"""Per-language evaluation standards, one sub-package per ISO 639-3 code."""
