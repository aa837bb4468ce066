"""Shared static analysis: import resolution, a per-file index, value inference, the project index."""
