"""The games pbem knows: the registry reads this tuple and nothing else. Each game's package
``__init__.py`` is its declaration; a new game adds its own line here."""

from pbem.engine.declaration import GameInfo
from pbem.games import il_principe, princes_of_florence, princes_of_the_renaissance

GAMES: tuple[GameInfo, ...] = (
    princes_of_the_renaissance.INFO,
    princes_of_florence.INFO,
    il_principe.INFO,
)
