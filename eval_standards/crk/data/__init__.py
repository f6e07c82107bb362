"""Word lists of the Plains Cree evaluation standard (tab-separated files; see README.md)."""
