"""Reads: replay and audit, statistics from the read models, the projection runner and its trigger, live signals."""
