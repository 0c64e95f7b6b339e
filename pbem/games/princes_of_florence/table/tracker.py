"""Companion mode for Princes of Florence: the grammar of a table's actions and the tracker.

The table records what happens at a physical game: auction results as purchases with their price,
each action of the action phase, and the end of each round; the tracker checks each against the
rules text (seed 001) and keeps florins, prestige, estates and works.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.companion import words as read
from pbem.companion.tracker import ComponentValues, EventForm, Forms, Report, Sheet, Tracker
from pbem.engine.json_shape import snake, snake_scores
from pbem.errors import IllegalMoveError, MoveSyntaxError, UsageError
from pbem.games.princes_of_florence import actions, auction
from pbem.games.princes_of_florence.buildings import buildable
from pbem.games.princes_of_florence.components import (
    FREEDOMS,
    LANDSCAPES,
    SIZES,
    Components,
    Overrides,
    load,
    overrides,
    parse,
)
from pbem.games.princes_of_florence.prestige import breakdown, face_down, reveal_hint
from pbem.games.princes_of_florence.table.state import OVER, Estate, Table
from pbem.games.princes_of_florence.table.view import (
    best_work_report,
    building_cost_report,
    prestige_report,
    score_sheet,
    table_sheet,
    work_report,
)
from pbem.games.princes_of_florence.works import Bonus, minimum, repeat_refusal, work_value
from pbem.kit.rules import Options

EVENTS = (
    EventForm(
        "PLAYER buys landscape forest|lake|park for N",
        "alice buys landscape lake for 300",
        "won a landscape at the auction; a second and each further of a kind gives 3 prestige",
    ),
    EventForm("PLAYER buys jester for N", "bob buys jester for 400", "won a jester at the auction"),
    EventForm(
        "PLAYER buys builder for N",
        "carla buys builder for 200",
        "won a builder; the second and third give 3 prestige each",
    ),
    EventForm(
        "PLAYER buys recruitment for N",
        "alice buys recruitment for 200",
        "won a recruitment card at the auction",
    ),
    EventForm(
        "PLAYER buys prestige-card [CARD] for N",
        "bob buys prestige-card most-works for 500",
        "won a prestige card (name it now or reveal it later)",
    ),
    EventForm(
        "PLAYER builds BUILDING [large|medium|small]",
        "bob builds university large",
        "an action: build (700, 300 with builders, free with three); 3 prestige",
    ),
    EventForm(
        "PLAYER takes freedom opinion|religion|travel",
        "alice takes freedom travel",
        "an action, once a round: a freedom for 300 florins",
    ),
    EventForm(
        "PLAYER takes profession [PROFESSION]",
        "carla takes profession",
        "an action, once a round: a profession card for 300 florins (named or not)",
    ),
    EventForm("PLAYER takes bonus", "alice takes bonus", "an action: a bonus card for 300 florins"),
    EventForm(
        "PLAYER creates work PROFESSION [bonus CARD|N]... [min N] [prestige K]",
        "alice creates work mathematician bonus jesters prestige 3",
        "an action: a work; 100 florins per WP, K prestige taken instead at 200 florins each",
    ),
    EventForm(
        "PLAYER recruits PROFESSION from PLAYER",
        "carla recruits poet from bob",
        "a recruitment card takes a profession laid out by an opponent into the hand",
    ),
    EventForm(
        "PLAYER reveals prestige-card CARD",
        "bob reveals prestige-card most-jesters",
        "names a prestige card held face down",
    ),
    EventForm(
        "PLAYER sells prestige N", "alice sells prestige 2", "moves back N prestige for 100 florins each"
    ),
    EventForm(
        "PLAYER empty-squares N",
        "alice empty-squares 6",
        "the empty squares of the estate as counted on the board (for fewest-empty)",
    ),
    EventForm("minimum N", "minimum 9", "this round's minimum work value, read off the round track"),
    EventForm("round ends", "round ends", "end of the action phase: best work +3 prestige, next round"),
    EventForm("PLAYER florins +N|-N", "alice florins +200", "correction of florins"),
    EventForm("PLAYER prestige +N|-N", "alice prestige -1", "correction of prestige points"),
)

QUERIES = (
    EventForm(
        "work PLAYER PROFESSION [bonus CARD|N]... [min N]",
        "work alice poet bonus jesters",
        "a work's value line by line against the round's minimum, and its florins or prestige",
    ),
    EventForm("building-cost PLAYER", "building-cost bob", "what a building costs the player now"),
    EventForm("best-work", "best-work", "the round's best work so far and who would gain 3 prestige"),
    EventForm("prestige", "prestige", "what each prestige card would give each player now, with ties"),
)

VERBS = (
    "buys",
    "builds",
    "takes",
    "creates",
    "recruits",
    "reveals",
    "sells",
    "florins",
    "prestige",
    "empty-squares",
)
# A player named like a table-wide action would make actions ambiguous.
KEYWORDS = {"round", "minimum"}


class PrincesOfFlorence(Forms):
    """The Princes of Florence tracker (``TRACKER``)."""

    def start(
        self, players: Sequence[str], edition: str, options: Options, components: ComponentValues | None
    ) -> Table:
        names = tuple(player.lower() for player in players)
        if not 2 <= len(names) <= 5 or len(set(names)) != len(names):
            raise UsageError("princes-of-florence is for 2 to 5 players, each named once")
        if KEYWORDS & set(names) or any(len(name.split()) != 1 for name in names):
            clash = sorted(KEYWORDS & set(names)) or [name for name in names if len(name.split()) != 1]
            raise UsageError(f"princes-of-florence: a player may not be called {clash[0]!r}")
        unofficial = options.get("unofficial_rules") is True
        if len(names) == 2 and not unofficial:
            raise UsageError("princes-of-florence with 2 players needs the unofficial rules")
        found, given = _components(components)
        count = len(names)
        supply = found.supply()
        if unofficial:
            left = found.unofficial_recruitment(count)
            supply["recruitment"] = supply["recruitment"] if left is None else left
        # "сдается по 4 карты ... оставшуюся карту сбрасывает обратно в колоду"
        hand = found.rule("start_hand")
        supply["profession"] = len(found.professions) - hand * count
        assert found.rule("dealt") * count <= len(found.professions)
        limit = found.unofficial_building_copies(count) if unofficial else None
        supply.update(
            {
                name: building.copies if limit is None else limit
                for name, building in sorted(found.buildings.items())
            }
        )
        # "Число маркеров свободы каждого типа, доступное в игре, равно количеству игроков минус 1."
        supply.update({f"freedom-{kind}": count - 1 for kind in FREEDOMS})
        return Table(
            components=found,
            players=names,
            unofficial=unofficial,
            variant_last=options.get("variant_last_price") is True,
            estates={name: Estate(florins=found.rule("start_florins"), hand=hand) for name in names},
            supply=supply,
            minimums=given.minimums,
            prestige_cards=given.prestige,
            sizes=given.sizes,
            first=names[0],
        )

    def apply(self, state: Table, text: str) -> tuple[Table, Sheet]:
        table = copy.deepcopy(state)
        words = read.split(text)
        head = words[0]
        if head == "round":
            read.expect(text, words, 2, "round ends")
            read.one_of(text, words[1], "word", ["ends"])
            actions.end_round(table, text)
            notes = _game_over_notes(table) if table.phase == OVER else ()
            return table, (best_work_report(state, ended=True), *_notes(notes))
        if head == "minimum":
            read.expect(text, words, 2, "minimum N")
            _playing(table, text)
            actions.set_minimum(table, text, read.number(text, words[1], "minimum"))
            return table, ()
        player = read.player(text, head, table.players)
        if len(words) < 2:
            raise MoveSyntaxError(f"{text!r}: expected '{player} VERB ...'; verbs: {', '.join(VERBS)}")
        verb = read.one_of(text, words[1], "verb", VERBS)
        return table, _ACTIONS[verb](table, text, player, words[2:])

    def query(self, state: Table, text: str) -> Sheet:
        words = read.split(text)
        head = read.one_of(text, words[0], "query", ["work", "building-cost", "best-work", "prestige"])
        if head == "best-work":
            read.expect(text, words, 1, "best-work")
            return (best_work_report(state),)
        if head == "prestige":
            read.expect(text, words, 1, "prestige")
            return (prestige_report(state),)
        if head == "building-cost":
            read.expect(text, words, 2, "building-cost PLAYER")
            return (building_cost_report(state, read.player(text, words[1], state.players)),)
        if len(words) < 3:
            raise MoveSyntaxError(f"{text!r}: expected 'work PLAYER PROFESSION [bonus CARD|N]... [min N]'")
        player = read.player(text, words[1], state.players)
        profession = read.one_of(text, words[2], "profession", state.components.professions)
        bonuses, stated, _ = _work_tail(state, text, words[3:], allow_prestige=False)
        return (_work_query(state, text, player, profession, bonuses=bonuses, stated=stated),)

    def income_action(self, state: Table) -> str | None:
        """No income in Princes of Florence; what is due at a round's end is the best work's prestige."""
        return None if state.phase == OVER else "round ends"

    def show(self, state: Table) -> Sheet:
        return table_sheet(state)

    def score(self, state: Table) -> Sheet:
        return score_sheet(state)

    def totals(self, state: Table) -> dict[str, int]:
        return {player: row["total"] for player, row in breakdown(state).items()}

    def complete(self, state: Table, words: Sequence[str], incomplete: str) -> list[str]:
        return read.prefixed(_candidates(state, [word.lower() for word in words]), incomplete)


def _components(given: Mapping[str, Any] | None) -> tuple[Components, Overrides]:
    """The box a table plays with, read once at its set-up: every rule after it reads the values
    from the table. A whole template (a group's copy of ``pbem templates show``, with its
    ``[template]`` table) gives every value itself; otherwise the template pbem ships gives them,
    with the few values the sources leave open replaced (``overrides``)."""
    if given and "template" in given:
        found = parse(given)
        return found, overrides(None, found)
    found = load()
    return found, overrides(given, found)


def _notes(lines: Sequence[str]) -> Sheet:
    return (Report(title="Note", columns=("note",), rows=tuple((line,) for line in lines)),) if lines else ()


def _game_over_notes(table: Table) -> tuple[str, ...]:
    hidden = face_down(table)
    if not hidden:
        return ("game over: 'pbem table score' gives the final score",)
    return (f"game over: the prestige cards are turned up before the final score: {reveal_hint(hidden)}",)


def _playing(table: Table, text: str) -> None:
    if table.phase == OVER:
        raise IllegalMoveError(
            f"{text!r}: the game is over: it ends with round {table.components.rule('rounds')}"
        )


def _price(text: str, rest: Sequence[str], form: str) -> int:
    if len(rest) != 2 or rest[0] != "for":
        raise MoveSyntaxError(f"{text!r}: expected {form!r}")
    return read.number(text, rest[1], "price")


def _buys(table: Table, text: str, player: str, rest: Sequence[str]) -> Sheet:
    _playing(table, text)
    form = "PLAYER buys landscape|jester|builder|recruitment|prestige-card ... for N"
    if not rest:
        raise MoveSyntaxError(f"{text!r}: expected {form!r}")
    lot = read.one_of(
        text, rest[0], "lot", ["landscape", "jester", "builder", "recruitment", "prestige-card"]
    )
    card = None
    if lot == "landscape":
        if len(rest) < 2:
            raise MoveSyntaxError(f"{text!r}: expected 'PLAYER buys landscape forest|lake|park for N'")
        lot = read.one_of(text, rest[1], "landscape", LANDSCAPES)
        rest = rest[1:]
    elif lot == "prestige-card" and len(rest) > 1 and rest[1] != "for":
        card = read.one_of(text, rest[1], "prestige card", table.prestige_cards)
        rest = rest[1:]
    price = _price(text, rest[1:], form)
    auction.buy(table, text, player, lot, price=price, card=card)
    return ()


def _builds(table: Table, text: str, player: str, rest: Sequence[str]) -> Sheet:
    _playing(table, text)
    if len(rest) not in (1, 2):
        raise MoveSyntaxError(f"{text!r}: expected 'PLAYER builds BUILDING [large|medium|small]'")
    building = read.one_of(text, rest[0], "building", table.components.building_names)
    size = read.one_of(text, rest[1], "size", SIZES) if len(rest) == 2 else None
    price = actions.build(table, text, player, building, size)
    gain = table.components.rule("building_prestige")
    return _notes((f"{player} builds the {building} for {price} florins and gains {gain} prestige",))


def _takes(table: Table, text: str, player: str, rest: Sequence[str]) -> Sheet:
    _playing(table, text)
    if not rest:
        raise MoveSyntaxError(f"{text!r}: expected 'PLAYER takes freedom KIND|profession [NAME]|bonus'")
    what = read.one_of(text, rest[0], "thing to take", ["freedom", "profession", "bonus"])
    if what == "freedom":
        read.expect(text, rest, 2, "PLAYER takes freedom opinion|religion|travel")
        actions.take_freedom(table, text, player, read.one_of(text, rest[1], "freedom", FREEDOMS))
    elif what == "profession":
        if len(rest) > 2:
            raise MoveSyntaxError(f"{text!r}: expected 'PLAYER takes profession [PROFESSION]'")
        name = (
            read.one_of(text, rest[1], "profession", table.components.professions) if len(rest) == 2 else None
        )
        actions.take_profession(table, text, player, name)
    else:
        read.expect(text, rest, 1, "PLAYER takes bonus")
        actions.take_bonus(table, text, player)
    return ()


def _work_tail(
    table: Table, text: str, rest: Sequence[str], *, allow_prestige: bool
) -> tuple[list[Bonus], int | None, int]:
    """Read ``bonus CARD|N``..., ``min N`` and ``prestige K`` after a work's profession: the one
    place both ``creates work`` and the ``work`` calculation read them, so both refuse alike."""
    keywords = ["bonus", "min", "prestige"] if allow_prestige else ["bonus", "min"]
    bonuses: list[Bonus] = []
    stated: int | None = None
    prestige = 0
    if len(rest) % 2:
        raise MoveSyntaxError(
            f"{text!r}: expected pairs of {', '.join(keywords)} and a value after the profession"
        )
    for keyword, value in zip(rest[::2], rest[1::2], strict=True):
        read.one_of(text, keyword, "word", keywords)
        if keyword == "bonus":
            if value.isdigit():
                bonuses.append(read.number(text, value, "bonus value"))
                continue
            card = read.one_of(text, value, "bonus card", table.components.listed_bonus())
            if card in bonuses:
                # A card given by its value (``bonus 4``) may repeat: two cards no source lists
                # can be worth the same.
                raise IllegalMoveError(
                    f"{text!r}: the bonus card {card} is played twice in one work, and each bonus card "
                    "is played only once"
                )
            bonuses.append(card)
        elif keyword == "min":
            stated = read.number(text, value, "minimum")
        else:
            prestige = read.number(text, value, "prestige")
    return bonuses, stated, prestige


def _creates(table: Table, text: str, player: str, rest: Sequence[str]) -> Sheet:
    _playing(table, text)
    if len(rest) < 2 or rest[0] != "work":
        raise MoveSyntaxError(
            f"{text!r}: expected 'PLAYER creates work PROFESSION [bonus CARD|N]... [min N] [prestige K]'"
        )
    profession = read.one_of(text, rest[1], "profession", table.components.professions)
    bonuses, stated, prestige = _work_tail(table, text, rest[2:], allow_prestige=True)
    value, least = actions.create_work(
        table, text, player, profession, bonuses=bonuses, stated_minimum=stated, prestige=prestige
    )
    work = table.estates[player].works[-1]
    return (
        work_report(
            player,
            value,
            least,
            table.components,
            (f"{player} takes {work.prestige} prestige and {work.florins} florins",),
        ),
    )


def _recruits(table: Table, text: str, player: str, rest: Sequence[str]) -> Sheet:
    _playing(table, text)
    if len(rest) != 3 or rest[1] != "from":
        raise MoveSyntaxError(f"{text!r}: expected 'PLAYER recruits PROFESSION from PLAYER'")
    profession = read.one_of(text, rest[0], "profession", table.components.professions)
    auction.recruit(table, text, player, profession, read.player(text, rest[2], table.players))
    return ()


def _reveals(table: Table, text: str, player: str, rest: Sequence[str]) -> Sheet:
    if len(rest) != 2 or rest[0] != "prestige-card":
        raise MoveSyntaxError(f"{text!r}: expected 'PLAYER reveals prestige-card CARD'")
    auction.reveal(table, text, player, read.one_of(text, rest[1], "prestige card", table.prestige_cards))
    return ()


def _sells(table: Table, text: str, player: str, rest: Sequence[str]) -> Sheet:
    _playing(table, text)
    if len(rest) != 2 or rest[0] != "prestige":
        raise MoveSyntaxError(f"{text!r}: expected 'PLAYER sells prestige N'")
    actions.sell_prestige(table, text, player, read.number(text, rest[1], "prestige"))
    return ()


def _correct(table: Table, text: str, player: str, rest: Sequence[str], what: str) -> Sheet:
    if len(rest) != 1 or rest[0][:1] not in "+-" or not rest[0][1:]:
        raise MoveSyntaxError(f"{text!r}: expected 'PLAYER {what} +N|-N'")
    change = read.number(text, rest[0], what, signed=True)
    estate = table.estates[player]
    held = estate.florins if what == "florins" else estate.points
    if held + change < 0:
        raise IllegalMoveError(f"{text!r}: {player} has {held} {what}; a correction cannot go below 0")
    if what == "florins":
        estate.florins += change
    else:
        estate.prestige["corrections"] += change
    return ()


def _empty(table: Table, text: str, player: str, rest: Sequence[str]) -> Sheet:
    if len(rest) != 1:
        raise MoveSyntaxError(f"{text!r}: expected 'PLAYER empty-squares N'")
    count = read.number(text, rest[0], "empty squares")
    # "поместье": a 7x7 grid less the 3x2 palace (notes), so 43 squares at most are empty.
    layout = table.components.estate
    free = layout.columns * layout.rows - len(layout.palace)
    if count > free:
        raise IllegalMoveError(
            f"{text!r}: an estate has {free} free squares ({layout.columns}x{layout.rows} less the palace)"
        )
    table.estates[player].empty = count
    return ()


_ACTIONS = {
    "buys": _buys,
    "builds": _builds,
    "takes": _takes,
    "creates": _creates,
    "recruits": _recruits,
    "reveals": _reveals,
    "sells": _sells,
    "florins": lambda table, text, player, rest: _correct(table, text, player, rest, "florins"),
    "prestige": lambda table, text, player, rest: _correct(table, text, player, rest, "prestige"),
    "empty-squares": _empty,
}


def _work_query(
    state: Table, text: str, player: str, profession: str, *, bonuses: Sequence[Bonus], stated: int | None
) -> Report:
    """The value the work would have now, computed on a copy with the card laid out."""
    table = copy.deepcopy(state)
    notes: list[str] = []
    repeat = repeat_refusal(player, profession, (work.profession for work in state.estates[player].works))
    if repeat:
        notes.append(f"{player} could not create it: {repeat}")
    try:
        actions.lay_out(table, text, player, profession)
    except IllegalMoveError as error:
        notes.append(f"{player} could not create it now: {error}")
    if len(bonuses) > state.estates[player].bonus:
        notes.append(f"{player} holds only {state.estates[player].bonus} bonus card(s)")
    least = stated if stated is not None else minimum(state.minimums, state.round)
    if least is None:
        notes.append(f"round {state.round}'s minimum is in no source: add 'min N' from the round track")
    value = work_value(table.estates[player], profession, bonuses, state.components)
    return work_report(player, value, least, state.components, tuple(notes))


def _candidates(table: Table, words: Sequence[str]) -> list[str]:
    """The words that may come next; completion only, the parser decides."""
    if not words:
        return [*table.players, "round", "minimum"]
    head, rest = words[0], list(words[1:])
    if head == "round":
        return ["ends"] if not rest else []
    if head not in table.players:
        return []
    if not rest:
        return list(VERBS)
    verb, rest = rest[0], rest[1:]
    estate = table.estates[head]
    seen = {name for other in table.estates.values() for name in (*other.played, *other.named)}
    if verb == "buys":
        if not rest:
            return ["landscape", "jester", "builder", "recruitment", "prestige-card"]
        if rest[0] == "landscape":
            return list(LANDSCAPES) if len(rest) == 1 else (["for"] if len(rest) == 2 else [])
        if rest[0] == "prestige-card" and len(rest) == 1:
            return [*table.prestige_cards, "for"]
        return (
            ["for"]
            if len(rest) == 1 or (len(rest) == 2 and rest[0] == "prestige-card" and rest[1] != "for")
            else []
        )
    if verb == "builds":
        if not rest:
            return buildable(estate.buildings, table.supply, table.components)
        return (
            [table.sizes[rest[0]]]
            if rest[0] in table.sizes and len(rest) == 1
            else (list(SIZES) if len(rest) == 1 else [])
        )
    professions = table.components.professions
    if verb == "takes":
        if not rest:
            return ["freedom", "profession", "bonus"]
        if len(rest) == 1 and rest[0] == "freedom":
            return [kind for kind in FREEDOMS if kind not in estate.freedoms]
        if len(rest) == 1 and rest[0] == "profession":
            return [name for name in professions if name not in seen]
        return []
    if verb == "creates":
        if not rest:
            return ["work"]
        if len(rest) == 1:
            return estate.named + ([name for name in professions if name not in seen] if estate.hand else [])
        tail = rest[2:]
        if len(tail) % 2:
            return list(table.components.listed_bonus()) if tail[-1] == "bonus" else []
        return ["bonus", "min", "prestige"]
    if verb == "recruits":
        if not rest:
            return [name for other, est in table.estates.items() if other != head for name in est.played]
        if len(rest) == 1:
            return ["from"]
        if len(rest) == 2:
            return [other for other, est in table.estates.items() if rest[0] in est.played and other != head]
        return []
    if verb == "reveals":
        return ["prestige-card"] if not rest else (list(table.prestige_cards) if len(rest) == 1 else [])
    if verb == "sells":
        return ["prestige"] if not rest else []
    return []


def picture_view(table: Table) -> dict[str, Any]:
    """The shape of a game by email's view (``email_view.view``), for a picture of the table, so
    one drawing serves both. The log records no squares, so an estate holds only its palace on
    the grid; its buildings and landscapes are listed by name. Cards in hands are counts (the
    cards the table named are listed too); a prestige card not yet revealed is face down."""
    from pbem.games.princes_of_florence import estate as grid
    from pbem.games.princes_of_florence.prestige import winners
    from pbem.games.princes_of_florence.view import pieces

    layout = table.components.estate
    palace = pieces(grid.Estate.start(layout.columns, layout.rows, layout.palace))
    players = []
    for name in table.players:
        estate = table.estates[name]
        players.append(
            {
                "seat": name,
                "florins": estate.florins,
                "prestige": estate.points,
                "prestige_by_source": {snake(source): points for source, points in estate.prestige.items()},
                "estate_pieces": palace,
                "empty_squares": estate.empty,
                "buildings": list(estate.buildings),
                "landscapes": [kind for kind in LANDSCAPES for _ in range(estate.landscapes[kind])],
                "freedoms": list(estate.freedoms),
                "jesters": estate.jesters,
                "builders": estate.builders,
                "profession_cards": estate.hand + len(estate.named),
                "named_in_hand": list(estate.named),
                "laid_out": list(estate.played),
                "bonus_cards": estate.bonus,
                "recruitment_cards": estate.recruitment,
                "recruitment_cards_used": estate.recruited,
                "prestige_cards": [card or "face down" for card in estate.prestige_cards],
                "works": [f"{work.profession} {work.value} WP (round {work.round})" for work in estate.works],
                "this_round": {"won": estate.bought or "", "actions": list(estate.actions)},
            }
        )
    scores = breakdown(table)
    final = table.phase == OVER and not face_down(table)
    return {
        "round": table.round,
        "phase": "over" if table.phase == OVER else f"{table.phase}, at the table",
        "estate_grid": [layout.columns, layout.rows],
        "first_player": table.first,
        "minimum_work": minimum(table.minimums, table.round),
        "lots_sold_this_round": list(table.auctioned),
        "decks": {deck: table.supply[deck] for deck in DECKS if deck in table.supply},
        "supply": {
            _supply_name(table, item): count for item, count in table.supply.items() if item not in DECKS
        },
        "players": players,
        "score": snake_scores(scores),
        "score_final": final,
        "winners": winners(scores) if final else [],
    }


DECKS = ("profession", "bonus")


def _supply_name(table: Table, item: str) -> str:
    """A supply item named as a game by email names it (``building:opera``, ``freedom:travel``)."""
    if item in table.components.buildings:
        return f"building:{item}"
    return item.replace("freedom-", "freedom:", 1)


TRACKER = PrincesOfFlorence(EVENTS, QUERIES)
_CHECK: Tracker[Table] = TRACKER
