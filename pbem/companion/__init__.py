"""Companion mode: a log of what happens at a physical table, replayed into a score sheet."""
