"""Princes of the Renaissance (Martin Wallace; Warfrog 2003, Mercury Games 2016)."""

from pbem.games.princes_of_the_renaissance.meta import INFO

__all__ = ["INFO"]
