"""Tests of simulator/views/."""
