"""A computer player for any game with a ruleset: information-set Monte Carlo tree search, over
the rules' own legal moves, from what one seat knows (single-observer ISMCTS, after Cowling, Powley
and Whitehouse, 2012).

Each playout deals a guess at what the seat cannot see (``knowledge.determinize``), walks down the
tree choosing by UCB among the moves the rules accept in that deal (a node's statistics count
only the playouts where its move could be made), adds one node, plays on at random to the end and
backs up every seat's share of the win. The move played most often from the root is chosen.

Who chooses what in the tree:

- the seat itself, by UCB on its own shares;
- the other seats' open moves, by UCB on their own shares, from the same statistics: as if they
  too saw only the moves made (a simplification: their tree does not know their own cards);
- a sealed choice of another seat is drawn at random, never a node, so neither the seat's sealed
  choice nor another's can depend on the other in the tree (the seat chooses first in a sealed
  step, from the state before any choice is played);
- random events and the cards drawn come from the guess, never nodes.

A playout stops once ``cap`` moves are made from the position searched: ``evaluate`` (a game's
own estimate of a seat's chance of winning at a state: the ``estimate`` its package declares,
pbem.kit.computer.estimate, or one given) or else the standing on points says how it would
likely end.

Where there is an estimate, each of the root's moves starts with the estimate of the position one
move on as ``prior`` playouts' worth (progressive bias; the estimate declares how many), its
sealed choices judged as if played alone. Random playouts judge a move by games in which every
seat, the searcher too, squanders its money at random: a budget of a few dozen of them let the
searcher outbid players who keep theirs and lose every game; with the prior they correct the
estimate where they agree on it, and no more.

Where the time goes: in the rules. A playout is the rules' ``legal_moves`` at every step (where a
game lists every placement of a building, or every set of cards for every city, each checked),
then the move checked and applied; the tree, the guesses and the judging cost a few percent
(``benchmarks/bench_computer.py`` gives the figures).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import IllegalMoveError
from pbem.kit.computer.estimate import PRIOR, Estimate
from pbem.kit.computer.knowledge import Knowledge, determinize
from pbem.kit.computer.walk import Turn, Walk, WalkRules, shares

# A game's own estimate of ``seat``'s chance of winning at a state, in [0, 1].
Evaluate = Callable[[Any, str], float]
EXPLORATION = 0.7  # UCB's constant for rewards in [0, 1]
CAP = 400  # moves from the position searched, before a playout is cut short and judged


@dataclass(frozen=True)
class Choice:
    """The move chosen, the seat's estimated chance of winning with it, and the playouts made."""

    move: str
    chance: float
    playouts: int


@dataclass(eq=False)
class Node:
    """A move ``seat`` made after the moves on the way down to it (none for the root);
    ``wins``: that seat's shares of the win over the ``visits`` through it."""

    seat: str = ""
    move: str = ""
    children: dict[tuple[str, str], Node] = field(default_factory=dict)
    visits: int = 0
    wins: float = 0.0
    avails: int = 1  # the playouts in which the move could be made, counted where it was

    def ucb(self) -> float:
        return self.wins / self.visits + EXPLORATION * math.sqrt(math.log(self.avails) / self.visits)


def choose(
    rules: WalkRules,
    knowledge: Knowledge,
    seat: str,
    *,
    playouts: int | None = None,
    seconds: float | None = None,
    seed: int | str = 0,
    evaluate: Evaluate | None = None,
    cap: int = CAP,
    estimate: Estimate | None = None,
    prior: int | None = None,
) -> Choice:
    """The move ``seat`` makes now, from what it knows: searched for ``playouts`` playouts or
    ``seconds`` seconds (whichever ends first; one of them is needed), from a generator seeded by
    ``seed`` (a budget in playouts makes the choice the same every time). ``evaluate``: the
    game's estimate of a playout cut short after ``cap`` moves; ``estimate``, a game's declared
    one, gives both. ``prior``: the playouts' worth of the estimate one move on each of the root's
    moves starts with (0: none; by default the declared estimate's, else PRIOR). A move the seat
    has no choice about is made without a search; its chance is then the estimate of the
    position as it stands."""
    if seat != knowledge.seat:
        raise ValueError(f"the knowledge is {knowledge.seat}'s, not {seat}'s")
    if playouts is None and seconds is None:
        raise ValueError("a budget is needed: playouts or seconds")
    if estimate is not None:
        evaluate, cap = estimate.chance, estimate.horizon
        prior = estimate.prior if prior is None else prior
    weight = PRIOR if prior is None else prior
    search = Search(rules, knowledge, random.Random(seed), evaluate, cap, prior=weight)
    first = search.walk()
    turn = first.turn(prefer=seat)
    if turn is None or turn.seat != seat:
        raise ValueError(f"{seat} is not asked to move")
    search.accepted = first.accepted(turn)
    if len(search.accepted) == 1:
        return Choice(search.accepted[0], search.judge(first.state)[seat], 0)
    if evaluate is not None:
        search.order(first, turn)
    deadline = None if seconds is None else time.perf_counter() + seconds
    made = 0
    while made < (playouts or math.inf) and (deadline is None or time.perf_counter() < deadline):
        search.iterate()
        made += 1
    best = max(search.root.children.values(), key=lambda node: (node.visits, node.wins))
    return Choice(best.move, best.wins / best.visits, made)


class Search:
    """One search's tree, from what ``knowledge.seat`` knows."""

    def __init__(
        self,
        rules: WalkRules,
        knowledge: Knowledge,
        rng: random.Random,
        evaluate: Evaluate | None,
        cap: int,
        *,
        prior: int = 0,
    ) -> None:
        self.rules = rules
        self.knowledge = knowledge
        self.seat = knowledge.seat
        self.rng = rng
        self.evaluate = evaluate
        self.cap = cap
        self.prior = prior
        self.root = Node()
        # The seat's moves at the root that the rules accept: the same in every guess, since the
        # state is the seat's own and so are the cards its moves show.
        self.accepted: list[str] = []
        # The order the root's moves are first tried in: best first by the game's estimate of the
        # position just after each (where it has one); else at random. A budget smaller than the
        # moves offered (every city with every set of cards) then tries the likely ones.
        self.first: list[str] = []
        # The game's estimate of the seat's chance one move on, by root move (where it has one).
        self.worth: dict[str, float] = {}

    def order(self, walk: Walk[Any], turn: Turn) -> None:
        """The root's moves ordered by the game's estimate of the position one move on, in the
        guess ``walk`` deals (each tried on a copy of its dealer); the estimates kept as the
        moves' priors."""
        assert self.evaluate is not None
        worth: dict[str, float] = {}
        # A sealed choice is judged as if played at once, alone: from the state before any seat's
        # choice, so it reads nothing another seat sealed.
        alone = Turn(turn.seat, sealed=False)
        for text in self.accepted:
            after = Walk(self.rules, walk.dealer.copy(), walk.state, walk.rng)
            try:
                after.play(alone, text)
            except IllegalMoveError:
                continue
            worth[text] = self.evaluate(after.state, turn.seat)
        ties = {text: self.rng.random() for text in worth}
        self.first = sorted(worth, key=lambda text: (-worth[text], ties[text]))
        self.worth = worth

    def walk(self) -> Walk[Any]:
        """The game from the seat's state on, in a new guess at what it cannot see."""
        return Walk(self.rules, determinize(self.knowledge, self.rng), self.knowledge.state, self.rng)

    def iterate(self) -> None:
        """One playout: a guess, down the tree, one node added, on at random, the shares backed up."""
        walk = self.walk()
        node, path = self.root, [self.root]
        while (turn := walk.turn(prefer=self.seat)) is not None:
            if turn.sealed and turn.seat != self.seat:
                walk.play_any(turn)
                continue
            options = self.accepted if node is self.root else walk.options(turn.seat)
            node, added = self.descend(walk, turn, node, options)
            path.append(node)
            if added:
                break
        while walk.moves < self.cap and (turn := walk.turn(prefer=self.seat)) is not None:
            walk.play_any(turn)
        won = self.judge(walk.state)
        for visited in path:
            visited.visits += 1
            if visited.seat:
                visited.wins += won[visited.seat]

    def descend(self, walk: Walk[Any], turn: Turn, node: Node, options: list[str]) -> tuple[Node, bool]:
        """The move made at ``node`` in this guess, of ``options``: one not yet tried, at random,
        added as a node (True); else the best by UCB of those the rules accept here."""
        untried = [text for text in options if (turn.seat, text) not in node.children]
        if node is self.root and self.first:
            rank = {text: index for index, text in enumerate(self.first)}
            untried.sort(key=lambda text: rank.get(text, len(rank)))
        else:
            self.rng.shuffle(untried)
        for text in untried:
            try:
                walk.play(turn, text)
            except IllegalMoveError:
                continue
            child = node.children[turn.seat, text] = Node(turn.seat, text)
            if node is self.root and text in self.worth:
                child.visits, child.wins = self.prior, self.prior * self.worth[text]
            return child, True
        tried = [node.children[turn.seat, text] for text in options if (turn.seat, text) in node.children]
        for child in tried:
            child.avails += 1
        for child in sorted(tried, key=Node.ucb, reverse=True):
            try:
                walk.play(turn, child.move)
            except IllegalMoveError:
                continue
            return child, False
        raise AssertionError(f"{turn.seat} has no move the rules accept: {walk.phase()}")

    def judge(self, state: Any) -> dict[str, float]:
        """Each seat's share of the win at the end, or its estimate where a playout was cut short."""
        if self.evaluate is None or self.rules.over(state):
            return shares(self.rules, state)
        seats: tuple[str, ...] = state.seats
        return {seat: self.evaluate(state, seat) for seat in seats}
