"""Shared test settings: Hypothesis without per-example deadlines (CI machines are shared and
their timing varies; speed is measured in benchmarks/, never asserted in tests)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "electsim",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("electsim")
