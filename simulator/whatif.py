"""What-if analysis: fork a scenario, compare two replays, sweep a variable, and show results
in Jupyter (the public face of :mod:`simulator.analysis.whatif`, which documents each piece).

>>> from simulator.whatif import Margin, fork, sweep
"""

from simulator.analysis.whatif import *  # noqa: F403 (the what-if API, as a whole)
from simulator.analysis.whatif import __all__ as __all__
