"""Readers and writers of every input format (SPEC §1)."""
