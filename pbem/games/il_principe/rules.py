"""The Il Principe ruleset as the engine sees it: a thin adapter over ``rounds`` (the rules) and
``moves`` (the grammar). docs/rules/il-principe.md, "By email", gives every move with the text of
seed 002 it rests on.

One hidden deck, the building cards: a draw is a request the engine answers with a token; a card
turned face up (in the reserve, in a city, played) is shown through the engine, which checks it,
and leaves the deck, the rules counting it by colour from then on. The reserve is a sealed step.
The cities are turned up by random events every seat contributes to.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import repeat
from typing import Any

from pbem.crypto.randomness import Draws
from pbem.engine.declaration import GameInfo
from pbem.engine.ruleset import CardUse, DeckSpec, Demand, DemandKind, RandomRequest
from pbem.errors import GameFileError, IllegalMoveError, UsageError
from pbem.games.il_principe import components as parts
from pbem.games.il_principe import rounds
from pbem.games.il_principe.components import COLOURS, check_icons
from pbem.games.il_principe.moves import (
    Build,
    Move,
    Play,
    Reserve,
    Shield,
    Show,
    TurnUp,
    build_texts,
    format_move,
    parse,
    reserve_words,
    shield_texts,
)
from pbem.games.il_principe.state import (
    ACTIONS,
    BUILD,
    CITIES,
    DECK,
    OVER,
    RESERVE,
    REUSE,
    SHIELD,
    SHOW,
    TURN_UP,
    Game,
    new_game,
    settings,
)
from pbem.kit import stand_in
from pbem.kit.cards import DrawRules
from pbem.kit.frozen import evolve
from pbem.kit.grammar import Bid, Pass
from pbem.kit.rules import Components, MoveTable, Options, TableRules
from pbem.kit.seats import first
from pbem.kit.stand_in import Defaults
from pbem.kit.templates import ComponentError

_set = object.__setattr__


class Rules(TableRules[Game, Move], DrawRules[Game]):
    info: GameInfo  # its declaration, which gives it (see the package's _rules)

    def setup(self, seats: Sequence[str], edition: str, options: Options, components: Components) -> Game:
        try:
            found = parts.parse(components)
        except ComponentError as exc:
            raise GameFileError(f"il-principe components: {exc}") from None
        try:
            chosen = parts.readings(components.get("readings", {}))
        except UsageError as exc:
            raise GameFileError(f"il-principe components: {exc}") from None
        config = settings(found, len(seats), options.get("rich_start") is True, chosen)
        return rounds.start(evolve(new_game(found, seats, config), defaults=Defaults.of(options)))

    def phase(self, state: Game) -> str:
        if state.phase == OVER:
            return OVER
        if state.follow_ups:
            return f"round {state.round} {state.phase}: {state.follow_ups[0].kind}"
        return f"round {state.round} {state.phase}"

    def over(self, state: Game) -> bool:
        """« Fin du jeu »: the score is final. A card the red role drew in the last round stays
        in its holder's hand unread; only the number of cards in hand scores."""
        return state.phase == OVER

    def demands(self, state: Game) -> list[Demand]:
        actors = rounds.actors(state)
        if not actors:
            return []
        step = rounds.step(state)
        kind: DemandKind = "sealed" if state.phase == RESERVE else "move"
        # One prompt for all: it names the seat's own follow-up, and a follow-up asks its seat alone
        said = prompt(state, actors[0])
        return [Demand(seat, kind, step, said) for seat in actors]

    def parse(self, text: str) -> Move:
        return parse(text)

    def format(self, move: Move) -> str:
        return format_move(move)

    def first(self, state: Game, seat: str, move: Move) -> None:
        """A seat a follow-up waits for answers it before anything else."""
        due = state.follow_ups[0] if state.follow_ups else None
        if due is not None and seat == due.seat and not _answers(move, due.kind):
            raise IllegalMoveError(f"{seat} must first answer: {prompt(state, seat)}")

    def moved(self, state: Game) -> Game:
        return evolve(state, moves=state.moves + 1)

    def check(self, state: Game, seat: str, move: Move) -> None:
        """``TableRules.check`` as it reads for this game, whose moves are none of them free and
        which is over at ``OVER``: asked before every move."""
        if seat not in state.seats:
            raise IllegalMoveError(f"{seat!r} has no seat in this game")
        if state.phase == OVER:
            raise IllegalMoveError("the game is over")
        self.first(state, seat, move)
        self.table.check(state, seat, move)

    def apply(self, state: Game, seat: str, move: Move) -> Game:
        """``TableRules.apply``, the move counted (``moved``) in the copy its rule makes rather
        than in a copy of its own, one a move: no rule reads the count, and every rule gives a
        state it has just made, which nobody else holds yet, so it is counted there before it is
        given out (every state anyone holds stays as it was)."""
        after = self.table.apply(state, seat, move)
        if after is state:  # a rule that changed nothing
            return self.moved(state)
        _set(after, "moves", state.moves + 1)
        return after

    def legal(self, state: Game, seat: str) -> list[Move]:
        """Every move ``seat`` may make now. Cards only their holder knows are offered by token: a
        city or a play is listed for each set of held cards of the right size, and the engine
        refuses a claim the cards shown do not bear out."""
        if seat not in rounds.actors(state):
            return []
        return _legal(state, seat)

    def legal_moves(self, state: Game, seat: str) -> list[str]:
        """``legal`` as text, written without making each move first where the lists are long:
        the bids, the move asked most often, from a table of their texts, and the cities, which
        run to hundreds of moves, from pieces written once for each set of cards and of regions."""
        if seat not in rounds.actors(state):
            return []
        return _legal_texts(state, seat)

    def default_move(self, state: Game, seat: str, step: str) -> Move | None:
        """A late seat passes where it may (a bid, the city a win allows, the green role's card,
        phase 3's action); otherwise what it must do is done the first way the lists give: the
        first cards of its hand go in the reserve (the hand in the order drawn, then its public
        cards; games made before depend on that order, so it stays); its reserve is shown (in a
        game with escrow, the others first unlock its shares of those cards; without, the game
        waits for it); the blue role's shield goes in a region the game's shared randomness picks
        (option default_places=chance), or in games made before it in the first region in
        alphabetical order, which always strengthened the same region."""
        if seat not in rounds.actors(state):
            return None
        if state.phase == RESERVE:
            player = state.player(seat)
            items = [*player.hand, *(c for c, n in zip(COLOURS, player.known, strict=True) for _ in range(n))]
            return Reserve(tuple(items[: state.settings.rules.reserve]))
        if state.phase == SHOW:
            return Show()
        due = first(state.follow_ups)
        if due is not None and due.kind == SHIELD:
            return Shield(state.defaults.place(sorted(state.components.regions), "shield", seat, step))
        return Pass()

    def played_by_defaults(self, state: Game, seats: tuple[str, ...], chance: bytes) -> Game:
        return stand_in.told(state, seats, chance)

    def random_requests(self, state: Game) -> list[RandomRequest]:
        if not state.city_draws and not state.reuse:  # asked after every move; rarely any
            return []
        requests = []
        if state.city_draws:
            requests.append(RandomRequest(f"{CITIES} after {len(state.built)} built"))
        if state.reuse:
            requests.append(RandomRequest(f"{REUSE} round {state.round}"))
        return requests

    def event_words(self, context: str) -> str:
        """What a random event is for, in the players' words (the context names it in the file)."""
        if context.startswith(CITIES):
            return "draw that turns up the next city cards"
        if context.startswith(REUSE):
            return "draw of the removed cards that come back into play"
        return context

    def resolve(self, state: Game, context: str, draws: Draws) -> Game:
        if context.startswith(CITIES):
            return rounds.turn_up_cities(state, draws.shuffle(sorted(state.pool)))
        if context.startswith(REUSE):
            return rounds.reuse_removed(state, draws.shuffle(rounds.removed_cards(state)))
        raise AssertionError(f"il-principe asks for no random event {context!r}")

    def view(self, state: Game, seat: str | None) -> dict[str, Any]:
        from pbem.games.il_principe.view import view

        return view(state, seat)

    def outcomes(self, before: Game, after: Game) -> list[str]:
        from pbem.games.il_principe.outcomes import outcomes

        return outcomes(before, after)

    def score(self, state: Game) -> dict[str, dict[str, int]]:
        from pbem.games.il_principe.view import breakdown

        return breakdown(state)

    # --- hidden decks ---
    def hidden_decks(self, state: Game) -> list[DeckSpec]:
        """« 100 cartes Bâtiment », 20 of each colour; « 7 cartes Bâtiment par couleur » fewer
        with 2 players, left out of the deck since their colours are known."""
        removed = state.components.rules["two_players_removed_per_colour"] if len(state.seats) == 2 else 0
        cards = tuple(
            colour for colour in COLOURS for _ in range(state.components.colours[colour].cards - removed)
        )
        return [DeckSpec(DECK, cards)]

    # What a card dealt, a move's hidden cards and a card shown do: the rounds' own rules.
    card_drawn = staticmethod(rounds.drawn)
    card_revealed = staticmethod(rounds.revealed)

    def card_uses(self, state: Game, seat: str, move: Move) -> list[CardUse]:
        if not isinstance(move, _SHOWING):  # asked at every move; most are bids and passes
            return []
        return card_uses(state, seat, move)


_SHOWING = (Show, Build, Play)  # the moves that may show hidden cards


def card_uses(state: Game, seat: str, move: Move) -> list[CardUse]:
    """Each hidden card a move turns face up is shown, and showing it takes it out of the hand and
    the deck: from then on it is a public card the rules count by colour. A discard of the same
    card would name a card its holder no longer holds, and the engine would refuse the move."""
    if not isinstance(move, _SHOWING) or seat not in state.seats:
        return []
    if isinstance(move, Show) and state.phase == SHOW:
        tokens = rounds.unshown(state.player(seat))
    elif isinstance(move, (Build, Play)):  # a tuple: isinstance of a union is slower
        held = state.player(seat).hand
        tokens = [card for card in dict.fromkeys(move.cards) if card in held]
    else:
        return []
    return [_reveal(token) for token in tokens]


@functools.cache
def _reveal(token: str) -> CardUse:
    """``reveals`` of one token, made once for each card of the deck (a use is frozen, and random
    playouts show cards by the thousand)."""
    return CardUse("reveal", DECK, token=token)


# The moves that answer each kind of follow-up.
_ANSWERS: dict[str, tuple[type, ...]] = {BUILD: (Build, Pass), TURN_UP: (TurnUp, Pass), SHIELD: (Shield,)}


def _answers(move: Move, kind: str) -> bool:
    return isinstance(move, _ANSWERS[kind])


MOVES = MoveTable[Game, Game](
    {
        Reserve: (rounds.check_reserve, rounds.reserve),
        Show: (rounds.check_show, rounds.show),
        Bid: (rounds.check_bid, rounds.bid),
        Build: (rounds.check_build, rounds.build),
        Play: (rounds.check_play, rounds.play),
        TurnUp: (rounds.check_turn_up, rounds.turn_up),
        Shield: (rounds.check_shield, rounds.shield),
        Pass: (rounds.check_decline, rounds.decline),
    }
)


# --- what a seat may do ----------------------------------------------------------------------------


def prompt(state: Game, seat: str) -> str:
    due = first(state.follow_ups)
    if due is not None and due.seat == seat:
        if due.kind == BUILD:
            return (
                "you won a group and may build one city now: "
                "build CITY with CARD ... shields REGION ..., or pass"
            )
        if due.kind == TURN_UP:
            colour = due.what.split()[0]
            return f"the {due.what} turns one face-down card up (not {colour}): turn up COLOUR, or pass"
        return f"the {due.what} places a shield: shield REGION"
    if state.phase == RESERVE:
        wanted = state.settings.rules.reserve
        return f"put {wanted} cards from your hand in the reserve, face down: reserve CARD ..."
    if state.phase == SHOW:
        return "turn your reserve face up: show"
    auction = state.auction
    if auction is not None:
        what = f"the {auction.lot} group" if auction.lot in COLOURS else f"the {auction.lot} role"
        lead = f" ({auction.leader} leads at {auction.price})" if auction.leader else ""
        return f"bid for {what}{lead}: bid N, or pass"
    if state.phase == ACTIONS:
        return "build CITY with CARD ... shields REGION ..., play CARD ... (one colour), or pass"
    return ""


# Each list below is made of legal moves only, rather than of candidates each put through
# ``check``: a player searching by random playouts lists the moves at every step, and checking
# every bid, reserve and city one by one was most of the time a move took. What makes each one
# legal is said beside it; tests/games/il_principe/test_legal.py puts every candidate through
# ``check`` and finds the same list, in the same order.

BID = "bid"  # what a seat is asked, beside the phases and the follow-ups: a bid or a pass


def _asked(state: Game) -> str:
    """What the seats ``rounds.actors`` asks must do: answer the first follow-up (its kind),
    make its reserve or show it, bid (``BID``), or take phase 3's action (``ACTIONS``)."""
    due = first(state.follow_ups)
    if due is not None:
        return due.kind
    if state.phase in (RESERVE, SHOW):
        return state.phase
    if state.auction is not None:
        return BID
    return state.phase if state.phase == ACTIONS else ""


def _legal(state: Game, seat: str) -> list[Move]:
    """The moves of ``seat``, one of the seats ``rounds.actors`` asks: the turn is its own, and
    a follow-up it owes is the only thing it may answer."""
    asked = _asked(state)
    if asked == BID:
        return [*(Bid(amount) for amount in _bids(state, seat)), Pass()]
    if asked == BUILD:
        return [*_builds(state, seat), Pass()]
    if asked == TURN_UP:
        # Any colour but the role's own, of which the seat has a card face down.
        own = state.follow_ups[0].what.split()[0]
        down = state.player(seat).down
        colours = [colour for colour, number in zip(COLOURS, down, strict=True) if number and colour != own]
        return [*(TurnUp(colour) for colour in colours), Pass()]
    if asked == SHIELD:
        # A shield goes in any region of the game.
        return [Shield(region) for region in sorted(state.components.regions)]
    if asked == RESERVE:
        return [Reserve(cards) for cards in _reserves(state, seat)]
    if asked == SHOW:
        return [Show()]
    if asked == ACTIONS:
        return [*_builds(state, seat), *_plays(state, seat), Pass()]
    return []


def _legal_texts(state: Game, seat: str) -> list[str]:
    """``_legal`` as text: the same moves in the same order."""
    asked = _asked(state)
    if asked == BID:
        return [*_bid_texts(_bids(state, seat)), _PASS]
    if asked == BUILD:
        return [*_build_texts(state, seat), _PASS]
    if asked == ACTIONS:
        return [*_build_texts(state, seat), *(play.said() for play in _plays(state, seat)), _PASS]
    if asked == RESERVE:
        # Each set as its words, sorted as strings: the order of the sets themselves, as in
        # ``_build_texts`` (every set has as many cards, and no card's name has a character
        # before the space that parts them); and two sets have the same words only if they are
        # the same set, so only a hand holding a public colour more than once needs the set.
        items = _items(state, seat)
        joined = map(" ".join, itertools.combinations(items, state.settings.rules.reserve))
        return reserve_words(sorted(set(joined) if len(set(items)) < len(items) else joined))
    if asked == SHIELD:
        return shield_texts(sorted(state.components.regions))
    return [move.said() for move in _legal(state, seat)]


def _reserves(state: Game, seat: str) -> list[tuple[str, ...]]:
    """Any ``reserve`` cards of the hand: its tokens are each held once, and a colour is taken at
    most as often as the seat holds public cards of it."""
    wanted = state.settings.rules.reserve
    return sorted(set(itertools.combinations(_items(state, seat), wanted)))


def _bids(state: Game, seat: str) -> range:
    """Every bid from the least the auction takes to the seat's ducats (a pass is always taken)."""
    auction = state.auction
    assert auction is not None
    return range(rounds.RAISE.least(auction), state.player(seat).ducats + 1)


# ``Bid(amount).said()`` at index ``amount``, each written once: replaced whole by a longer one
# when a seat has more ducats than it reaches, never extended in place, so that another thread
# reading it never finds it half made
_BIDS_WRITTEN: list[tuple[str, ...]] = [()]


def _bid_texts(amounts: range) -> tuple[str, ...]:
    """The bids of ``amounts`` as ``Bid.said`` writes them, a slice of the texts written so far:
    the bids are the list asked most often."""
    written = _BIDS_WRITTEN[0]
    if len(written) < amounts.stop:
        written = tuple(Bid(amount).said() for amount in range(2 * amounts.stop))
        _BIDS_WRITTEN[0] = written
    return written[amounts.start : amounts.stop]


_PASS = Pass().said()


def _plays(state: Game, seat: str) -> list[Move]:
    """Cards of one colour from the hand: a public colour as often as it is held, each hidden card
    alone (it may be of any colour). Several hidden cards of one colour are accepted in one play,
    but listed one by one: which of them share a colour is the holder's secret, and every set
    would be too many to list."""
    player = state.player(seat)
    plays: list[Move] = [Play((token,)) for token in player.hand]
    for colour, number in zip(COLOURS, player.known, strict=True):
        plays.extend(Play((colour,) * size) for size in range(1, number + 1))
    return plays


def _items(state: Game, seat: str) -> list[str]:
    player = state.player(seat)
    return [*player.hand, *(c for c, n in zip(COLOURS, player.known, strict=True) for _ in range(n))]


# A city ``seat`` may build: its id, the sets of cards that may bear its icons, and each set
# of regions its shields may go in; every pair of the two is a move, in the order of the cards.
Choice = tuple[str, set[tuple[str, ...]], list[tuple[str, ...]]]


def _build_choices(state: Game, seat: str) -> list[Choice]:
    """Every city ``seat`` may build now, with each set of its cards that could bear the city's
    icons: public cards only for icons of their colour, hidden cards for the rest (their colours
    wait for them to be shown), and each set of regions its shields may go in.

    Asked in phase 3 or by a won group's follow-up, at the seat's turn, what ``check_build`` asks
    beyond that is the round, the cost and sound icons: the cards are held and bear the icons
    once shown, and the shields are as many as due, in regions the city touches."""
    if not rounds.builds_allowed(state):
        return []
    player = state.player(seat)
    public = dict(zip(COLOURS, player.known, strict=True))
    found: list[Choice] = []
    for city in state.face_up:
        card = state.components.cities[city]
        if card.cost > player.ducats or check_icons(card.size, card.icons):
            continue
        sets = _fitting(card.icons, public, player.hand)
        if not sets:
            continue
        due = rounds.shields_due(state, player, city)
        placements = sorted(set(itertools.combinations_with_replacement(card.regions, due)))
        found.append((city, sets, placements))
    return found


def _builds(state: Game, seat: str) -> list[Move]:
    return [
        Build(city, cards, regions)
        for city, sets, placements in _build_choices(state, seat)
        for cards in sorted(sets)
        for regions in placements
    ]


def _build_texts(state: Game, seat: str) -> list[str]:
    """``_builds`` written. Each set of cards is sorted as its words: the same order as the
    sets themselves, as every set of a city has as many cards and a card's name has no character
    before the space that parts them (sorting strings is much faster than sorting tuples)."""
    found: list[str] = []
    for city, sets, placements in _build_choices(state, seat):
        found.extend(build_texts(city, sorted(map(" ".join, sets)), placements))
    return found


def _fitting(icons: Sequence[str], public: Mapping[str, int], hand: Sequence[str]) -> set[tuple[str, ...]]:
    """The sets of cards that may bear ``icons``: for each colour, up to as many public cards as
    it has icons, and hidden cards for every icon left (tokens in hand order, then the colours)."""
    wanted = Counter(icons)
    found: set[tuple[str, ...]] = set()
    for taken in itertools.product(*(range(min(wanted[c], public[c]) + 1) for c in COLOURS)):
        shown = tuple(colour for colour, number in zip(COLOURS, taken, strict=True) for _ in range(number))
        # each set of tokens followed by ``shown``, joined without a loop in Python: a large hand
        # has hundreds of sets for a city
        found.update(map(operator.add, itertools.combinations(hand, len(icons) - len(shown)), repeat(shown)))
    return found


RULES = Rules(MOVES)
