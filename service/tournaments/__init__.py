"""Tournaments: the service that drives a tournament stream and the matches it opens, and its exported record."""
