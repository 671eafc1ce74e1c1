"""Test doubles shared by the tests, the evals and the benchmarks: a scripted chat model and a scripted
OpenAI-compatible HTTP server (the real langchain-openai client talks to it)."""
