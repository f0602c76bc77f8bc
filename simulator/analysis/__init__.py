"""Analysis over many replays: what-if, exploration, conformance, gaps and references."""
