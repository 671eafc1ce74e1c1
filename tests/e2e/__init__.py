"""End-to-end tests (marker `e2e`): real servers and processes started by the tests themselves: llama.cpp,
PostgreSQL, SMTP, `langgraph dev`, the scripted OpenAI-compatible server, terminals, the eval and bench runs."""
