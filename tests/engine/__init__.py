"""Tests of simulator/engine/."""
