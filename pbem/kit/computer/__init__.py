"""A computer player for any game with a ruleset, at the rules level: what a seat knows
(``knowledge``), a game played on from a state with a dealer standing in for the hidden decks
(``walk``), and the search that chooses a move (``search``)."""

from pbem.kit.computer.knowledge import Knowledge, determinize, knowledge_of
from pbem.kit.computer.search import Choice, Evaluate, choose
from pbem.kit.computer.walk import Turn, Walk

__all__ = ["Choice", "Evaluate", "Knowledge", "Turn", "Walk", "choose", "determinize", "knowledge_of"]
