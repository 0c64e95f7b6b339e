"""Il Principe (Emanuele Ornella)."""

from pbem.games.il_principe.meta import INFO

__all__ = ["INFO"]
