"""Matches: the move path (load, fold, decide, append), seats and tokens, deadlines, snapshots, simulation."""
