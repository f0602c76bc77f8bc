"""Tests of simulator/input/."""
