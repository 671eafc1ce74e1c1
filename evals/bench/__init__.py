"""Side-by-side benchmarks of flowagent against create_agent and plain loops: `flowagent-bench` or `python -m evals.bench`."""
