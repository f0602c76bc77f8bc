"""Tests of simulator/law/."""
