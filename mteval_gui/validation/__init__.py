"""Speaker-judgment studies: agreement, metric-human correlation, FST and linter audits."""
