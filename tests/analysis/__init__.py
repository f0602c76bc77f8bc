"""Tests of simulator/analysis/."""
