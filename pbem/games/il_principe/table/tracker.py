"""Companion mode for Il Principe: the grammar of table actions and the tracker ``pbem table`` uses.

Rules as implemented, with the text each rests on: docs/rules/il-principe.md.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.companion import words as w
from pbem.companion.tracker import ComponentValues, EventForm, Forms, Report, Sheet
from pbem.engine.json_shape import snake_scores
from pbem.errors import IllegalMoveError, MoveSyntaxError, UsageError
from pbem.games.il_principe import actions as act
from pbem.games.il_principe import roles, scoring
from pbem.games.il_principe.components import (
    COLOURS,
    RANKS,
    Components,
    ComponentSet,
    load,
    load_set,
    parse,
)
from pbem.games.il_principe.table import view
from pbem.games.il_principe.table.state import Rules, Seat, Table
from pbem.kit.rules import Options

EVENTS = (
    EventForm(
        "round income",
        "round income",
        "phase 1: each family takes 5 ducats (6 with 2 players or rich_start) and draws 4 cards "
        "(5 with 2 players)",
    ),
    EventForm(
        "<player> reserves <colour> ...",
        "alice reserves green red",
        "phase 1: cards from the hand put face down for auction (exactly 2 each, 3 with 2 players)",
    ),
    EventForm(
        "round reserves <colour> ...",
        "round reserves green green red blue yellow white",
        "last round: the groups to auction are drawn from the pile (6, 8, 10; 2 players: 6 or all)",
    ),
    EventForm(
        "<player> wins <colour> for <ducats>",
        "bob wins green for 3",
        "phase 2: the group goes to the hand, the bid to the bank; Il Principe; may build a city",
    ),
    EventForm(
        "nobody wins <colour>", "nobody wins red", "phase 2: nobody bids; the group is removed from play"
    ),
    EventForm(
        "<player> builds <city> [with <colour> ...] [shields <region> ...]",
        "alice builds firenze shields brown green",
        "a city: its cards from the hand, its cost, its VP, its shields; other families score "
        "their roles in its colours",
    ),
    EventForm(
        "<player> places <n> <colour>",
        "carol places 2 white",
        "phase 3: cards of one colour from the hand, face up in front",
    ),
    EventForm(
        "round roles",
        "round roles",
        "phase 4: roles returned and given colour by colour; stops where the table must decide",
    ),
    EventForm(
        "<player> takes <role> for <ducats>",
        "bob takes blue major for 2",
        "phase 4: a tied role won at auction (role: `blue major` or `noble`)",
    ),
    EventForm(
        "nobody takes <role>",
        "nobody takes white minor",
        "phase 4: nobody bids for a tied role; it stays on the board",
    ),
    EventForm(
        "<player> turns up <colour>|nothing",
        "alice turns up white",
        "phase 4, green role: a face-down card other than green turned face up",
    ),
    EventForm("<player> shield <region>", "bob shield red", "phase 4, blue role: a shield in any region"),
    EventForm(
        "round ends",
        "round ends",
        "the round is over; ends the game if it was the last or fewer than 4 cities are face up",
    ),
    EventForm("game ends", "game ends", "the table ends the game now"),
    EventForm(
        "<player> draws <n> [<colour>]", "alice draws 2", "correction: cards from the pile to the hand"
    ),
    EventForm("<player> pays <ducats>", "alice pays 3", "correction: ducats to the bank"),
    EventForm("<player> ducats <+n|-n>", "alice ducats +2", "correction: ducats"),
    EventForm("<player> vp <+n|-n>", "alice vp -1", "correction: points on the score track"),
    EventForm("<player> hand <+n|-n> [<colour>]", "bob hand +1 red", "correction: cards in hand"),
    EventForm(
        "<player> shields <region> <+n|-n>", "carol shields blue +1", "correction: shields in a region"
    ),
    EventForm(
        "<player> up|down <colour> <+n|-n>",
        "bob down green +1",
        "correction: cards in front, face up or face down",
    ),
    EventForm(
        "<player>|nobody holds <role>", "carol holds yellow minor", "correction: who holds a role tile"
    ),
)

QUERIES = (
    EventForm(
        "regions",
        "regions",
        "who scores each region now: 5 to the most, 2 to the second, 5 each to tied most",
    ),
    EventForm(
        "roles", "roles", "who would take each role if phase 4 were now, with the tie rule that applies"
    ),
    EventForm(
        "city <city> [with <colour> ...]",
        "city firenze",
        "a city's cost, VP, shields, icons and the role points its building gives",
    ),
    EventForm("auction", "auction", "the order the reserve's groups are auctioned in"),
    EventForm("end", "end", "the end-of-game conditions as they stand"),
)

ROUND_VERBS = ("income", "reserves", "roles", "ends")
NOBODY_VERBS = ("wins", "takes", "holds")
PLAYER_VERBS = (
    "reserves", "wins", "builds", "places", "takes", "turns", "shield",
    "draws", "pays", "ducats", "vp", "hand", "shields", "up", "down", "holds",
)  # fmt: skip
RESERVED = {"round", "game", "nobody", *COLOURS}


def rules_for(found: ComponentSet, players: int, rich_start: bool) -> Rules:
    """Setup, phase 1 and the end of the game, with « Règles spéciales pour 2 joueurs » and the
    « Variante » (10 ducats to start, 6 a round, a city may be built in the first round)."""
    two = players == 2
    rule = found.rules
    income = rule["two_players_income"] if two else rule["income"]
    return Rules(
        start_ducats=rule["variant_start_ducats"] if rich_start else rule["start_ducats"],
        income=rule["variant_income"] if rich_start else income,
        draw=rule["two_players_draw"] if two else rule["draw"],
        reserve=rule["two_players_reserve"] if two else rule["reserve"],
        threshold=rule["two_players_last_round_below"] if two else rule[f"last_round_below_{players}"],
        # 0: the two-player draw, whose count the texts word two ways (``act.last_draw_counts``)
        last_draw=0 if two else rule[f"last_round_draw_{players}"],
        cities=rule["city_cards"] - (rule["two_players_removed_cities"] if two else 0),
        minor_roles=not two,
        build_first_round=rich_start,
    )


def _colours(text: str, words: Sequence[str]) -> list[str]:
    if not words:
        raise MoveSyntaxError(f"{text!r}: name at least one colour ({', '.join(COLOURS)})")
    return [act.colour(text, word) for word in words]


def _for(text: str, words: Sequence[str], at: int, form: str) -> int:
    if len(words) != at + 2 or words[at] != "for":
        raise MoveSyntaxError(f"{text!r}: expected {form!r}")
    return w.number(text, words[at + 1], "bid")


def _build(table: Table, text: str, seat: Seat, words: Sequence[str], log: list[str]) -> None:
    form = "<player> builds <city> [with <colour> ...] [shields <region> ...]"
    if len(words) < 3:
        raise MoveSyntaxError(f"{text!r}: expected {form!r}")
    city = w.one_of(text, words[2], "city", table.parts.cities)
    icons: list[str] | None = None
    regions: list[str] = []
    section: str | None = None
    seen: set[str] = set()
    for word in words[3:]:
        if word in ("with", "shields"):
            if word in seen:
                raise MoveSyntaxError(f"{text!r}: {word!r} given twice")
            seen.add(word)
            section = word
            if word == "with":
                icons = []
        elif section == "with" and icons is not None:
            icons.append(act.colour(text, word))
        elif section == "shields":
            regions.append(act.region(table, text, word))
        else:
            raise MoveSyntaxError(f"{text!r}: expected {form!r}")
    act.builds(table, text, seat, city, icons=icons, regions=regions, log=log)


def _signed(text: str, word: str, what: str) -> int:
    if word[:1] not in "+-":
        raise MoveSyntaxError(f"{text!r}: a correction is signed, e.g. +2 or -1, not {word!r}")
    return w.number(text, word, what, signed=True)


def _player_action(table: Table, text: str, words: list[str], log: list[str]) -> None:
    seat = table.seats[w.player(text, words[0], table.players)]
    if len(words) < 2:
        raise MoveSyntaxError(f"{text!r}: expected '<player> <verb> ...'; verbs: {', '.join(PLAYER_VERBS)}")
    verb = w.one_of(text, words[1], "verb", PLAYER_VERBS)
    if verb == "reserves":
        act.reserves(table, text, seat, _colours(text, words[2:]), log)
    elif verb == "wins":
        card = act.colour(text, words[2]) if len(words) > 2 else ""
        bid = _for(text, words, 3, "<player> wins <colour> for <ducats>")
        act.wins(table, text, seat, card, bid, log=log)
    elif verb == "builds":
        _build(table, text, seat, words, log)
    elif verb == "places":
        w.expect(text, words, 4, "<player> places <n> <colour>")
        count = w.number(text, words[2], "count")
        act.places(table, text, seat, count, act.colour(text, words[3]), log=log)
    elif verb == "takes":
        act.not_over(table, text)
        role, at = act.role(table, text, words, 2)
        act.check_role(table, text, role)
        bid = _for(text, words, at, "<player> takes <role> for <ducats>")
        roles.take(table, text, seat.name, role, bid, log=log)
    elif verb == "turns":
        w.expect(text, words, 4, "<player> turns up <colour>|nothing")
        if words[2] != "up":
            raise MoveSyntaxError(f"{text!r}: expected '<player> turns up <colour>|nothing'")
        up = None if words[3] == "nothing" else act.colour(text, words[3])
        roles.turn_up(table, text, seat.name, up, log)
    elif verb == "shield":
        w.expect(text, words, 3, "<player> shield <region>")
        act.not_over(table, text)
        if seat.shields_placed >= table.parts.box.shields_per_family:
            raise IllegalMoveError(f"{text!r}: {seat.name} has no shield left to place")
        roles.shield(table, text, seat.name, act.region(table, text, words[2]), log)
    else:
        _correction(table, text, seat, verb, words, log=log)


def _correction(table: Table, text: str, seat: Seat, verb: str, words: list[str], *, log: list[str]) -> None:
    if verb in ("draws", "pays"):
        if len(words) not in (3, 4) or (verb == "pays" and len(words) != 3):
            form = "<player> draws <n> [<colour>]" if verb == "draws" else "<player> pays <ducats>"
            raise MoveSyntaxError(f"{text!r}: expected {form!r}")
        count = w.number(text, words[2], "count" if verb == "draws" else "ducats")
        if verb == "pays":
            act.pay(text, seat, count, "a family pays from what it holds")
            log.append(f"{seat.name} pays {count}")
        else:
            drawn = act.colour(text, words[3]) if len(words) == 4 else None
            act.draws(table, text, seat, count, drawn, log=log)
    elif verb in ("ducats", "vp"):
        w.expect(text, words, 3, f"<player> {verb} <+n|-n>")
        change = _signed(text, words[2], verb)
        if verb == "ducats":
            seat.ducats = act.adjust(text, seat.ducats, change, f"{seat.name}'s ducats")
        else:
            seat.vp = act.adjust(text, seat.vp, change, f"{seat.name}'s vp")
        log.append(f"{seat.name} {verb} {change:+d}")
    elif verb == "hand":
        if len(words) not in (3, 4):
            raise MoveSyntaxError(f"{text!r}: expected '<player> hand <+n|-n> [<colour>]'")
        card = act.colour(text, words[3]) if len(words) == 4 else None
        act.hand(table, text, seat, _signed(text, words[2], "change"), card, log=log)
    elif verb == "shields":
        w.expect(text, words, 4, "<player> shields <region> <+n|-n>")
        place = act.region(table, text, words[2])
        change = _signed(text, words[3], "change")
        seat.shields[place] = act.adjust(
            text, seat.shields.get(place, 0), change, f"{seat.name}'s shields in {place}"
        )
        act.adjust(
            text,
            seat.shields_placed - change,
            change,
            f"{seat.name}'s shields placed",
            table.parts.box.shields_per_family,
        )
        log.append(f"{seat.name} shields in {place} {change:+d}")
    elif verb in ("up", "down"):
        w.expect(text, words, 4, f"<player> {verb} <colour> <+n|-n>")
        card = act.colour(text, words[2])
        change = _signed(text, words[3], "change")
        side = seat.up if verb == "up" else seat.down
        side[card] = act.adjust(text, side[card], change, f"{seat.name}'s {card} face {verb}")
        log.append(f"{seat.name} {card} face {verb} {change:+d}")
    else:
        _holds(table, text, seat.name, words, log)


def _holds(table: Table, text: str, holder: str | None, words: list[str], log: list[str]) -> None:
    role, at = act.role(table, text, words, 2)
    w.expect(text, words, at, "<player>|nobody holds <role>")
    act.check_role(table, text, role)
    table.roles[role] = holder
    log.append(f"{role}: {holder or 'nobody'}")


def dispatch(table: Table, text: str, words: list[str], log: list[str]) -> None:
    head = words[0]
    if head == "round":
        verb = w.one_of(text, words[1] if len(words) > 1 else "", "round action", ROUND_VERBS)
        if verb == "reserves":
            act.round_reserves(table, text, _colours(text, words[2:]), log)
            return
        w.expect(text, words, 2, f"round {verb}")
        {"income": act.round_income, "roles": act.round_roles, "ends": act.round_ends}[verb](table, text, log)
    elif head == "game":
        w.expect(text, words, 2, "game ends")
        w.one_of(text, words[1], "game action", ("ends",))
        act.game_ends(table, text, log)
    elif head == "nobody":
        verb = w.one_of(text, words[1] if len(words) > 1 else "", "verb", NOBODY_VERBS)
        if verb == "wins":
            w.expect(text, words, 3, "nobody wins <colour>")
            act.wins(table, text, None, act.colour(text, words[2]), 0, log=log)
        elif verb == "takes":
            act.not_over(table, text)
            role, at = act.role(table, text, words, 2)
            w.expect(text, words, at, "nobody takes <role>")
            act.check_role(table, text, role)
            roles.nobody_takes(table, text, role, log)
        else:
            _holds(table, text, None, words, log)
    else:
        _player_action(table, text, words, log)


def _components(given: Mapping[str, Any] | None) -> tuple[ComponentSet, Components]:
    """The box a table plays with, read once at its set-up: every rule after it reads the values
    from the table. A whole template (a group's copy of ``pbem templates show``, with its
    ``[template]`` table) gives every value itself, and may carry a ``readings`` table as a game's
    components do; otherwise the template pbem ships gives them, with a table's overrides."""
    if given and "template" in given:
        box = parse(given)
        readings = given.get("readings")
        return box, load({"readings": readings} if readings is not None else None, box)
    box = load_set()
    return box, load(given, box)


class IlPrincipeTracker(Forms):
    """The companion-mode rules of Il Principe (``pbem.companion.tracker.Tracker``)."""

    def start(
        self, players: Sequence[str], edition: str, options: Options, components: ComponentValues | None
    ) -> Table:
        """Setup: « 5 ducats comme capital de départ » (10 with the variant), 12 shields, the
        pile of 100 building cards (65 with 2 players), the first player as Il Principe.
        ``components``: see ``components.load``."""
        names = tuple(name.lower() for name in players)
        if not 2 <= len(names) <= 5:
            raise UsageError("il principe is for 2 to 5 players")
        if len(set(names)) != len(names):
            raise UsageError("each player needs a different name")
        box, parts = _components(components)
        for name in names:
            if name in RESERVED or name in box.role_by_name() or not name.isidentifier():
                raise UsageError(
                    f"player name {name!r} cannot be told from the words of an action; choose another"
                )
        rules = rules_for(box, len(names), bool(options.get("rich_start", False)))
        removed = box.rules["two_players_removed_per_colour"] if len(names) == 2 else 0
        return Table(
            players=names,
            parts=parts,
            rules=rules,
            seats={name: Seat(name, rules.start_ducats) for name in names},
            principe=names[0],
            deck=sum(colour.cards - removed for colour in box.colours.values()),
        )

    def apply(self, state: Table, text: str) -> tuple[Table, Sheet]:
        table = copy.deepcopy(state)
        words = w.split(text)
        log: list[str] = []
        dispatch(table, text, words, log)
        waiting = roles.waiting(table)
        if waiting:
            log.append(f"waiting: {waiting}")
        return table, (Report(text, ("what happened",), tuple((line,) for line in log), data={"log": log}),)

    def query(self, state: Table, text: str) -> Sheet:
        words = w.split(text)
        kind = w.one_of(text, words[0], "calculation", [form.form.split()[0] for form in QUERIES])
        if kind == "city":
            if len(words) < 3:
                w.expect(text, words, 2, "city <city> [with <colour> ...]")
            found = state.parts.cities[w.one_of(text, words[1], "city", state.parts.cities)]
            icons = None
            if len(words) > 2:
                if words[2] != "with":
                    raise MoveSyntaxError(f"{text!r}: expected 'city <city> [with <colour> ...]'")
                icons = _colours(text, words[3:])
            return (view.city(state, found, icons),)
        w.expect(text, words, 1, kind)
        answers = {
            "regions": view.regions,
            "roles": view.role_majorities,
            "auction": view.auction,
            "end": view.end,
        }
        return (answers[kind](state),)

    def income_action(self, state: Table) -> str | None:
        if state.over or state.income_paid:
            return None
        return "round income"

    def show(self, state: Table) -> Sheet:
        return (view.families(state), view.regions(state), view.role_majorities(state))

    def score(self, state: Table) -> Sheet:
        return view.score(state)

    def totals(self, state: Table) -> dict[str, int]:
        return {name: row["total"] for name, row in scoring.breakdown(state).items()}

    def complete(self, state: Table, words: Sequence[str], incomplete: str) -> list[str]:
        return w.prefixed(candidates(state, [word.lower() for word in words]), incomplete)


def candidates(table: Table, words: list[str]) -> list[str]:
    """The words that may come next."""
    by_name = table.parts.box.role_by_name()
    role_words = [*COLOURS, *by_name]
    if not words:
        return [*table.players, "round", "game", "nobody"]
    head, rest = words[0], words[1:]
    if head == "round":
        if not rest:
            return list(ROUND_VERBS)
        return list(COLOURS) if rest[0] == "reserves" else []
    if head == "game":
        return ["ends"] if not rest else []
    verbs = NOBODY_VERBS if head == "nobody" else PLAYER_VERBS if head in table.players else ()
    if not rest:
        return list(verbs)
    verb, args = rest[0], rest[1:]
    if verb in ("takes", "holds"):
        if not args:
            return role_words
        if len(args) == 1 and args[0] in COLOURS:
            return list(RANKS)
        return (
            ["for"]
            if verb == "takes" and head != "nobody" and (args[-1] in RANKS or args[-1] in by_name)
            else []
        )
    if verb == "builds":
        if not args:
            return [city for city in table.parts.cities if city not in table.built]
        section = next((word for word in reversed(args) if word in ("with", "shields")), None)
        if section == "shields":
            return list(table.parts.regions)
        return [*(COLOURS if section == "with" else ()), "with", "shields"]
    simple: dict[str, list[list[str]]] = {
        "reserves": [list(COLOURS)] * 3,
        "wins": [list(COLOURS), ["for"]],
        "places": [[], list(COLOURS)],
        "turns": [["up"], [*COLOURS, "nothing"]],
        "shield": [list(table.parts.regions)],
        "draws": [[], list(COLOURS)],
        "hand": [[], list(COLOURS)],
        "shields": [list(table.parts.regions)],
        "up": [list(COLOURS)],
        "down": [list(COLOURS)],
    }
    steps = simple.get(verb, [])
    return steps[len(args)] if len(args) < len(steps) else []


def picture_view(table: Table) -> dict[str, Any]:
    """The shape of a game by email's view (the game's ``view.view``), for a picture of the table, so
    one drawing serves both. A table does not record which cities lie face up, nor the colour of
    the cards drawn face down; a city's regions are those the texts give or the table named when
    it was built."""
    box = table.parts.box
    players = []
    for name in table.players:
        seat = table.seats[name]
        players.append(
            {
                "seat": name,
                "ducats": seat.ducats,
                "vp": seat.vp,
                "hand": {
                    "cards": seat.hand_size,
                    "public": {c: seat.hand[c] for c in COLOURS if seat.hand[c]},
                },
                "face_up": dict(seat.up),
                "face_down": dict(seat.down),
                "shields": dict(sorted(seat.shields.items())),
                "cities": list(seat.cities),
                "roles": [role for role, holder in table.roles.items() if holder == name],
            }
        )
    cities = []
    for city, found in table.parts.cities.items():
        card = box.cities.get(city)
        regions = found.regions or table.city_regions.get(city)
        cities.append(
            {
                "city": city,
                "name": card.name if card else city.capitalize(),
                "size": found.size.name,
                "vp": found.vp,
                "regions": list(regions) if regions else None,
                "built_by": table.built.get(city),
            }
        )
    scores = scoring.breakdown(table)
    shown: dict[str, Any] = {
        "round": table.round,
        "phase": "over" if table.over else f"round {table.round}, at the table",
        "last_round": table.last_round,
        "il_principe": table.principe,
        "pile": table.deck,
        "reserve": {c: n for c, n in table.reserve.items() if n},
        "removed_from_play": table.discards,
        "roles": {role: holder for role, holder in table.roles.items() if holder},
        "regions": {region: box.region_name(region) for region in table.parts.regions},
        "cities": cities,
        "players": players,
        "score": snake_scores(scores),
    }
    if table.over:
        shown["winners"] = scoring.winners(table, scores)[0]
    return shown


TRACKER = IlPrincipeTracker(EVENTS, QUERIES)
