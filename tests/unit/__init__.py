"""Unit tests: the tool layer (specs, policy, store) on a real SQLite file; no server, no model, no network."""
