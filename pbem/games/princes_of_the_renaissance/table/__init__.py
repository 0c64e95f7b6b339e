"""Companion mode: a game on a real table, recorded action by action (``tracker``)."""
