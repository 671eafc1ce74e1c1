"""`python -m graph.models.local`: fetch the offline model's weights, install llama-cpp-python, serve."""

from graph.models.local import main

if __name__ == "__main__":
    raise SystemExit(main())
