"""`python -m evals.bench`: the same as `flowagent-bench`."""

import sys

from evals.bench.cli import main

sys.exit(main())
