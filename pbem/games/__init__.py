"""The games pbem knows; importing this package registers each of them."""

from pbem.games import il_principe, princes_of_florence, princes_of_the_renaissance

__all__ = ["il_principe", "princes_of_florence", "princes_of_the_renaissance"]
