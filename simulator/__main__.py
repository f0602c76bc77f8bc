"""``python -m simulator`` runs the same program as ``electsim``."""

import sys

from simulator.cli.main import main

sys.exit(main())
