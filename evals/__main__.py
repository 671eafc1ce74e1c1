"""`python -m evals`: the same as `flowagent-eval`."""

import sys

from evals.cli import main

sys.exit(main())
