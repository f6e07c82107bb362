"""Plains Cree (crk) evaluation standard: linter (LYSS-eq) and semantic validator (LYSS-sem)."""
