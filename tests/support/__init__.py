"""Helpers for the end-to-end tests: real servers (PostgreSQL, LangGraph, SMTP, a LangSmith capture) on loopback."""
