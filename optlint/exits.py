"""Exit codes, as ruff's: 0 nothing found, 1 findings, 2 usage, configuration or internal error.

A module of its own so that the CLI can name them without importing the engine."""

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
