"""Tests of simulator/cli/."""
