"""Graph tests: the real graph driven by scripted models, on SQLite files; no server, no native build."""
