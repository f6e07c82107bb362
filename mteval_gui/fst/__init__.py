"""HFST analyzers: loading, tokenisation, cached lookup, analysis parsing."""
