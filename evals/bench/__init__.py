"""Side-by-side benchmarks of flowagent against create_agent and plain loops: `python -m evals.bench.cli`."""
