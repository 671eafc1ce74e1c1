"""Evaluations: scenarios, runner, pass^k metrics, scripted and adversarial models, benchmarks."""
