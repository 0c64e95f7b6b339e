"""The computer player (pbem/kit/computer), for every game in the registry, at the rules level:
positions are reached by seeded random play with the dealer standing in for the hidden decks
(pbem/kit/dealer.py), and the searches are small and seeded, so every choice is the same on every
run.

- the move chosen is one the rules accept from the seat;
- what a seat knows hides the other seats' face-down cards and the piles' order: two deals that
  differ only there give equal knowledge, and the same choice;
- a guess at what a seat cannot see keeps what it knows, fills every other hand and pile, and
  deals no card the decks do not hold;
- a sealed choice is not in the state until every seat asked has made its own;
- a seat whose move ends the game with its win, where another would end it with its loss, makes it.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from pbem.engine.declaration import GameInfo
from pbem.engine.ruleset import require_ruleset
from pbem.errors import IllegalMoveError
from pbem.games import GAMES
from pbem.kit.cards import deck_of
from pbem.kit.computer import Knowledge, Turn, Walk, choose, determinize, knowledge_of
from pbem.kit.computer.estimate import Estimate, lead_chance
from pbem.kit.computer.walk import WalkRules, shares
from pbem.kit.dealer import Dealer, Hands
from tests.games.setups import new_game

SEATS = ("anna", "bruno", "carla", "dario")
NAMES = [info.name for info in GAMES]
PLAYOUTS = 8


@dataclass
class Table:
    """A game at the rules level: its rules, what its state says of hands, the dealer, the walk."""

    rules: WalkRules
    hands: Hands[Any]
    dealer: Dealer[Any]
    walk: Walk[Any]

    def knowledge(self, seat: str) -> Knowledge:
        return knowledge_of(self.rules, self.hands, self.dealer, self.walk.state, seat)

    def accepts(self, seat: str, text: str) -> bool:
        move = self.rules.parse(text)
        try:
            self.rules.check(self.dealer.show(self.walk.state, seat, move), seat, move)
        except IllegalMoveError:
            return False
        return text in self.dealer.playable(self.walk.state, seat)


def game(name: str) -> GameInfo:
    return next(info for info in GAMES if info.name == name)


def table(info: GameInfo, seed: int) -> Table:
    rules: WalkRules = require_ruleset(info)  # type: ignore[assignment]
    assert info.hands is not None, f"{info.name} declares no hands"
    hands = info.hands()
    state = new_game(info, SEATS)
    dealer = Dealer.of(rules, hands).reset(state, seed)
    return Table(rules, hands, dealer, Walk(rules, dealer, dealer.settle(state), random.Random(seed)))


def played(info: GameInfo, seed: int, moves: int) -> tuple[Table, Turn]:
    """A game after ``moves`` random moves (and any sealed step those began played out), at a
    seat's choice among several moves."""
    at = table(info, seed)
    while (turn := at.walk.turn()) is not None:
        ready = at.walk.moves >= moves and not at.walk.sealed
        if ready and len(at.walk.accepted(turn)) > 1:
            return at, turn
        at.walk.play_any(turn)
    raise AssertionError(f"{info.name} ended before {moves} moves")


@pytest.mark.parametrize("name", NAMES)
def test_the_move_chosen_is_accepted(name: str) -> None:
    at, turn = played(game(name), seed=3, moves=40)
    choice = choose(at.rules, at.knowledge(turn.seat), turn.seat, playouts=PLAYOUTS, seed=1)
    assert at.accepts(turn.seat, choice.move), (at.walk.phase(), choice)
    assert 0 <= choice.chance <= 1 and choice.playouts == PLAYOUTS
    at.walk.play(turn, choice.move)


@pytest.mark.parametrize("name", NAMES)
def test_a_sealed_choice_is_accepted_and_waits_for_the_others(name: str) -> None:
    at = table(game(name), seed=5)
    while (turn := at.walk.turn()) is not None and not turn.sealed:
        at.walk.play_any(turn)
        if at.walk.moves > 120:
            pytest.skip(f"{name} has no sealed step early in the game")
    assert turn is not None
    before = at.walk.state
    choice = choose(at.rules, at.knowledge(turn.seat), turn.seat, playouts=PLAYOUTS, seed=1)
    assert at.accepts(turn.seat, choice.move), choice
    at.walk.play(turn, choice.move)
    following = at.walk.turn(prefer=turn.seat)
    assert following is not None and following.seat != turn.seat
    if following.sealed:  # another seat chooses from the very state the first chose from
        assert at.walk.state is before and at.knowledge(following.seat).state is before


def other_cards(at: Table, seat: str) -> list[str]:
    """The face-down tokens of the seats other than ``seat``."""
    state = at.walk.state
    return [token for other in SEATS if other != seat for token in at.hands.face_down(state, other)]


def swapped(at: Table, first: str, unseen: list[str]) -> Dealer[Any]:
    """The same deal but for the card behind ``first``, swapped with one of another name behind a
    token of ``unseen``, and every pile shuffled again."""
    other = at.dealer.copy()
    second = next(t for t in unseen if deck_of(t) == deck_of(first) and other.cards[t] != other.cards[first])
    other.cards[first], other.cards[second] = other.cards[second], other.cards[first]
    shuffler = random.Random(7)
    for pile in other.piles.values():
        shuffler.shuffle(pile)
    return other


@pytest.mark.parametrize("name", NAMES)
def test_other_seats_hidden_cards_change_nothing(name: str) -> None:
    at = table(game(name), seed=11)
    while (turn := at.walk.turn()) is not None:
        ready = at.walk.moves >= 30 and not at.walk.sealed and other_cards(at, turn.seat)
        if ready and len(at.walk.accepted(turn)) > 1:
            break
        at.walk.play_any(turn)
    assert turn is not None
    seat, theirs = turn.seat, other_cards(at, turn.seat)
    piles = [token for pile in at.dealer.piles.values() for token in pile]
    other = swapped(at, theirs[0], theirs[1:] + piles)
    assert other.cards != at.dealer.cards and other.piles != at.dealer.piles
    seen = at.knowledge(seat)
    also = knowledge_of(at.rules, at.hands, other, at.walk.state, seat)
    assert seen == also
    # the guesses made from each are the same deal, card for card
    assert determinize(seen, random.Random(2)).cards == determinize(also, random.Random(2)).cards
    first = choose(at.rules, seen, seat, playouts=PLAYOUTS, seed=4)
    assert first.playouts == PLAYOUTS
    assert choose(at.rules, also, seat, playouts=PLAYOUTS, seed=4) == first
    # and so with the game's own estimate judging playouts cut short
    info = game(name)
    if info.estimate is not None:
        judged = choose(at.rules, seen, seat, playouts=PLAYOUTS, seed=4, estimate=info.estimate())
        assert choose(at.rules, also, seat, playouts=PLAYOUTS, seed=4, estimate=info.estimate()) == judged
    # while a deal that differs in the seat's own cards is known to differ
    own = list(seen.own)
    if own:
        changed = swapped(at, own[0], theirs + piles)
        assert knowledge_of(at.rules, at.hands, changed, at.walk.state, seat) != seen


@pytest.mark.parametrize("name", NAMES)
def test_a_guess_deals_only_the_cards_unaccounted_for(name: str) -> None:
    at, turn = played(game(name), seed=13, moves=35)
    seen = at.knowledge(turn.seat)
    state = at.walk.state
    for seed in range(3):
        guess = determinize(seen, random.Random(seed))
        assert all(guess.cards[token] == card for token, card in {**seen.shown, **seen.own}.items())
        assert all(token in guess.cards for token in other_cards(at, turn.seat))
        assert {deck: len(pile) for deck, pile in guess.piles.items()} == seen.piles
        for spec in seen.decks:
            dealt = [
                guess.cards[token]
                for token in {*seen.shown, *seen.own, *other_cards(at, turn.seat), *guess.piles[spec.deck_id]}
                if deck_of(token) == spec.deck_id
            ]
            assert not Counter(dealt) - Counter(spec.cards), spec.deck_id
        assert Walk(at.rules, guess, state, random.Random(seed)).turn(prefer=turn.seat) == turn


def decisive(info: GameInfo, seeds: range) -> tuple[Table, Turn, set[str]] | None:
    """A game near its end where the seat to move has moves that end it with its sole win, and
    others that end it with its loss: the table, the turn and the winning moves."""
    for seed in seeds:
        at = table(info, seed)
        history: list[tuple[Any, Dealer[Any], Turn]] = []
        while (turn := at.walk.turn()) is not None:
            if not turn.sealed:
                history.append((at.walk.state, at.dealer.copy(), turn))
            at.walk.play_any(turn)
        for state, dealer, turn in reversed(history[-12:]):
            outcomes: dict[str, float] = {}
            listed = dealer.playable(state, turn.seat)
            if len(listed) > 30:  # a choice among many builds: slow to try, seldom the last
                continue
            for text in listed:
                try:
                    after = dealer.copy().play(state, turn.seat, text)
                except IllegalMoveError:
                    continue
                if at.rules.over(after):
                    outcomes[text] = shares(at.rules, after)[turn.seat]
            wins = {text for text, share in outcomes.items() if share == 1}
            if wins and 0 in outcomes.values():
                found = Table(at.rules, at.hands, dealer, Walk(at.rules, dealer, state, random.Random(seed)))
                return found, turn, wins
    return None


def test_a_winning_last_move_is_made() -> None:
    found = {info.name: decisive(info, range(4)) for info in GAMES}
    assert any(found.values()), "no game gave a decisive last move"
    for name, position in found.items():
        if position is None:
            continue
        at, turn, wins = position
        choice = choose(at.rules, at.knowledge(turn.seat), turn.seat, playouts=24, seed=1)
        assert choice.move in wins, (name, choice, wins)
        assert choice.chance == 1


def test_a_playout_cut_short_is_judged_by_the_games_estimate() -> None:
    at, turn = played(game(NAMES[0]), seed=3, moves=20)
    asked: list[str] = []

    def evaluate(state: Any, seat: str) -> float:
        asked.append(seat)
        return 0.375

    choice = choose(
        at.rules, at.knowledge(turn.seat), turn.seat, playouts=4, seed=1, evaluate=evaluate, cap=0
    )
    assert choice.chance == 0.375 and set(asked) == set(SEATS)


def test_a_lead_is_worth_more_than_half_and_a_deficit_less() -> None:
    worth = {"anna": 10.0, "bruno": 10.0, "carla": 7.0}
    assert lead_chance(worth, "anna", 3.0) == 0.5
    assert lead_chance(worth | {"anna": 13.0}, "anna", 3.0) == pytest.approx(1 / (1 + math.exp(-1)))
    assert lead_chance(worth, "carla", 3.0) < lead_chance(worth, "carla", 6.0) < 0.5


@pytest.mark.parametrize("name", [info.name for info in GAMES if info.estimate is not None])
def test_a_games_estimate_favours_the_seat_ahead_on_points(name: str) -> None:
    """Each game's own estimate (its package's evaluate.py): a chance for every seat, highest
    for the seat furthest ahead on points when the game ends."""
    info = game(name)
    assert info.estimate is not None
    estimate = info.estimate()
    assert estimate.horizon > 0
    at = table(info, seed=5)
    while (turn := at.walk.turn()) is not None:
        at.walk.play_any(turn)
    totals = {seat: row["total"] for seat, row in at.rules.score(at.walk.state).items()}
    chances = {seat: estimate.chance(at.walk.state, seat) for seat in SEATS}
    assert all(0 <= value <= 1 for value in chances.values()), chances
    leader = max(totals, key=lambda seat: totals[seat])
    assert sorted(totals.values())[-2] < totals[leader], "the seeded game ends with one leader"
    assert max(chances, key=lambda seat: chances[seat]) == leader, (totals, chances)
    assert chances[leader] > 0.5 > min(chances.values())


def estimate_favouring(at: Table, turn: Turn, favoured: str, moves: int) -> Any:
    """An estimate that, for its first ``moves`` calls (the root's moves judged one move on), is
    sure of the position ``favoured`` leads to and of nothing else, and afterwards (the
    playouts) says even for every seat: only a prior taken from those first calls tells the
    moves apart."""
    after = at.dealer.copy().play(at.walk.state, turn.seat, favoured)
    calls = 0

    def evaluate(state: Any, seat: str) -> float:
        nonlocal calls
        calls += 1
        if calls > moves:
            return 0.5
        return 1.0 if state == after else 0.0

    return evaluate


@pytest.mark.parametrize("sealed", [False, True], ids=["open", "sealed"])
def test_the_estimate_one_move_on_is_each_root_moves_prior(sealed: bool) -> None:
    """The root's moves start with the estimate one move on as so many playouts' worth: where
    the playouts cannot tell them apart, the move the estimate favours is chosen; a sealed
    choice is judged so too, played alone from the state before any choice."""
    info = game("il-principe")
    if sealed:
        at = table(info, seed=5)
        while (turn := at.walk.turn()) is not None and not turn.sealed:
            at.walk.play_any(turn)
        assert turn is not None
    else:
        at, turn = played(info, seed=3, moves=40)
    accepted = at.walk.accepted(turn)
    assert len(accepted) > 2, accepted
    favoured = accepted[len(accepted) // 2]
    evaluate = estimate_favouring(at, turn, favoured, len(accepted))
    choice = choose(
        at.rules,
        at.knowledge(turn.seat),
        turn.seat,
        playouts=2 * len(accepted),
        seed=1,
        evaluate=evaluate,
        cap=0,
    )
    assert choice.move == favoured, (accepted, choice)
    assert choice.chance > 0.5
    # An estimate that declares no prior is only the playouts' judge, which here says even.
    unweighted = Estimate(estimate_favouring(at, turn, favoured, len(accepted)), horizon=0, prior=0)
    choice = choose(
        at.rules, at.knowledge(turn.seat), turn.seat, playouts=2 * len(accepted), seed=1, estimate=unweighted
    )
    assert choice.chance == 0.5, choice


@pytest.mark.parametrize("name", ["il-principe", "princes-of-the-renaissance"])
def test_a_games_estimate_judges_a_bid_by_its_price_when_it_is_made(name: str) -> None:
    """The estimate counts a bid not yet paid as paid: the higher of two bids the seat to move
    may make is worth less to it one move on, though nothing is paid until the bidding ends (a
    search that judges the first move by the estimate must not take a ruinous bid for free)."""
    info = game(name)
    assert info.estimate is not None
    chance = info.estimate().chance
    at = table(info, seed=7)
    while (turn := at.walk.turn()) is not None:
        bids = sorted(
            (text for text in at.walk.accepted(turn) if text.startswith("bid ")),
            key=lambda text: int(text.split()[1]),
        )
        if not turn.sealed and len(bids) > 2:
            break
        at.walk.play_any(turn)
    assert turn is not None, f"{name} ended with no choice of bids"
    worth = {}
    for text in (bids[0], bids[-1]):
        after = at.dealer.copy().play(at.walk.state, turn.seat, text)
        worth[text] = chance(after, turn.seat)
    assert worth[bids[0]] > worth[bids[-1]], worth
