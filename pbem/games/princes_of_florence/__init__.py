"""Princes of Florence (Wolfgang Kramer, Richard Ulrich)."""

from pbem.games.princes_of_florence.meta import INFO

__all__ = ["INFO"]
