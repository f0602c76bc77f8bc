"""Tests of simulator/model/."""
