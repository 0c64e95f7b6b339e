"""The table actions of Il Principe, each applied to a copy of the state (``table.apply`` copies).

Every refusal quotes the action and names the rule it breaks; the French quotations are from the
rules texts of seed 002.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.companion import words as w
from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.il_principe import roles
from pbem.games.il_principe.components import COLOURS, RANKS, ROLES, ComponentSet, check_icons
from pbem.games.il_principe.table.state import UNKNOWN, Seat, Table

Log = list[str]


# --- reading words ---------------------------------------------------------------------------------
def colour(text: str, word: str) -> str:
    return w.one_of(text, word, "colour", COLOURS)


def region(table: Table, text: str, word: str) -> str:
    return w.one_of(text, word, "region", table.parts.regions)


def role(table: Table, text: str, words: Sequence[str], at: int) -> tuple[str, int]:
    """A role as ``blue major`` or by its name (``noble``); the role and the next word's index."""
    by_name = table.parts.box.role_by_name()
    if at < len(words) and words[at] in by_name:
        return by_name[words[at]], at + 1
    if at + 1 < len(words) and f"{words[at]} {words[at + 1]}" in ROLES:
        return f"{words[at]} {words[at + 1]}", at + 2
    got = " ".join(words[at : at + 2]) or "nothing"
    raise MoveSyntaxError(
        f"{text!r}: unknown role {got!r}; known: <colour> major|minor or {', '.join(sorted(by_name))}"
    )


def check_role(table: Table, text: str, name: str) -> None:
    if name.endswith("minor") and not table.rules.minor_roles:
        raise IllegalMoveError(f"{text!r}: no minor roles with 2 players: every minor role card is removed")


# --- shared checks and moves -----------------------------------------------------------------------
def not_over(table: Table, text: str) -> None:
    if table.over:
        raise IllegalMoveError(f"{text!r}: the game is over; only corrections can be recorded")


def before_roles(table: Table, text: str) -> None:
    not_over(table, text)
    if table.roles_started:
        raise IllegalMoveError(
            f"{text!r}: phase 4 (the roles) has begun this round; record `round ends` first"
        )


def take_from_hand(table: Table, text: str, seat: Seat, cards: Sequence[str]) -> None:
    """Play ``cards`` from the hand: recorded colours first, then cards of unrecorded colour."""
    for card in COLOURS:
        wanted = cards.count(card)
        if not wanted:
            continue
        known = min(wanted, seat.hand[card])
        if wanted - known > seat.hand[UNKNOWN]:
            raise IllegalMoveError(
                f"{text!r}: {seat.name}'s hand as recorded holds {seat.hand[card]} {card} and "
                f"{seat.hand[UNKNOWN]} of unrecorded colour, not {wanted} {card}"
            )
        seat.hand[card] -= known
        seat.hand[UNKNOWN] -= wanted - known


def pay(text: str, seat: Seat, ducats: int, why: str) -> None:
    if ducats > seat.ducats:
        raise IllegalMoveError(f"{text!r}: {seat.name} has {seat.ducats} ducats, cannot pay {ducats} ({why})")
    seat.ducats -= ducats


def next_group(reserve: Mapping[str, int]) -> str | None:
    """« en commençant par le groupe de cartes le moins nombreux. En cas d'égalité, on utilise
    l'ordre des couleurs »."""
    left = [card for card in COLOURS if reserve[card] > 0]
    return min(left, key=lambda card: (reserve[card], COLOURS.index(card)), default=None)


def auction_order(reserve: Mapping[str, int]) -> list[tuple[str, int]]:
    """The groups still to be auctioned, in the order they go, with their cards."""
    left = dict(reserve)
    order = []
    while (card := next_group(left)) is not None:
        order.append((card, left[card]))
        left[card] = 0
    return order


def pending(table: Table) -> str:
    """The groups still to be auctioned, as a phrase (empty when phase 2 is settled)."""
    groups = [f"{card} ({count})" for card, count in auction_order(table.reserve)]
    if not groups:
        return ""
    return f"the {', '.join(groups)} group{'s' if len(groups) > 1 else ''} (cards in brackets)"


def last_draw_counts(table: Table) -> tuple[int, ...]:
    """How many cards the last round's `round reserves` draws for auction, by the texts.

    3 to 5 players: « 6 cartes pour 3 joueurs, 8 cartes pour 4 joueurs et 10 cartes pour 5
    joueurs »; a short pile takes from the cards removed from play, text A's « réutiliser des
    cartes déjà défaussées », and with fewer than that in both, all there is; with the reading
    ``short-pile = game-ends`` (text B: « le jeu prend fin immédiatement »), nothing from a short
    pile. 2 players: text A « tirer 6 cartes Bâtiment de la pioche (ou toutes celles restantes) »,
    text B « toutes les cartes restantes »: either count is accepted unless the table picked a
    reading (``two-players-last-round``). An empty tuple: nothing left to draw."""
    if table.rules.last_draw:
        if table.parts.reading("short-pile") == "game-ends":
            counts = {table.rules.last_draw if table.deck >= table.rules.last_draw else 0}
        else:
            counts = {min(table.rules.last_draw, table.deck + table.discards)}
    else:
        six = min(table.parts.rule("two_players_last_round_draw"), table.deck)
        counts = {"six": {six}, "all": {table.deck}}.get(
            table.parts.readings.get("two-players-last-round", ""), {six, table.deck}
        )
    return tuple(sorted(count for count in counts if count))


# --- round actions ---------------------------------------------------------------------------------
def round_income(table: Table, text: str, log: Log) -> None:
    """Phase 1: « Reçoit 5 pièces de monnaie ... Pioche 4 cartes » (2 players and the variant: 6
    ducats; 2 players: 5 cards). A pile below 12/16/20 cards (10 with 2 players) at the start of
    phase 1 makes this the last round: « les joueurs reçoivent uniquement leurs ducats »."""
    before_roles(table, text)
    if table.income_paid:
        raise IllegalMoveError(f"{text!r}: round {table.round}'s phase 1 income is already recorded")
    if table.deck < table.rules.threshold:
        table.last_round = True
        log.append(
            f"the pile holds {table.deck} cards, fewer than {table.rules.threshold}: this is the last "
            "round; no cards are drawn, the groups to auction come from the pile (`round reserves`)"
        )
    # Text A drops the last round's phase 1 whole (« La phase 1 est supprimée »), ducats included,
    # where text B keeps the ducats: the table's reading decides.
    paid = (
        0 if table.last_round and table.parts.reading("last-round-ducats") == "none" else table.rules.income
    )
    for seat in table.seats.values():
        seat.ducats += paid
        if not table.last_round:
            seat.hand[UNKNOWN] += table.rules.draw
            table.deck -= table.rules.draw
    drawn = "" if table.last_round else f" and draws {table.rules.draw} cards"
    log.append(f"round {table.round}: each family takes {paid} ducats{drawn}")
    table.income_paid = True


def round_reserves(table: Table, text: str, cards: Sequence[str], log: Log) -> None:
    """The last round: « les cartes sont tirées de la pioche pour la mise aux enchères (6 cartes
    pour 3 joueurs, 8 ... 4 joueurs et 10 ... 5 joueurs). S'il n'y a pas assez de cartes dans la
    pioche, réutiliser des cartes déjà défaussées ». With 2 players, « 6 cartes ... (ou toutes
    celles restantes) » (text A) or « toutes les cartes restantes » (text B). One action records
    the whole draw, of exactly that many cards (``last_draw_counts``)."""
    before_roles(table, text)
    if not table.last_round:
        raise IllegalMoveError(
            f"{text!r}: only the last round's groups are drawn from the pile; "
            "players reserve cards from their hands"
        )
    if table.auctions_begun:
        raise IllegalMoveError(f"{text!r}: the auctions have begun; the reserve is closed")
    if table.drawn_for_last_round:
        raise IllegalMoveError(
            f"{text!r}: the last round's {table.drawn_for_last_round} cards are already drawn for auction"
        )
    counts = last_draw_counts(table)
    if len(cards) not in counts:
        required = f"; name {_either(counts)}, not {len(cards)}" if counts else ""
        raise IllegalMoveError(f"{text!r}: {_last_draw_rule(table, counts)}{required}")
    from_pile = min(len(cards), table.deck)
    table.deck -= from_pile
    table.discards -= len(cards) - from_pile
    table.drawn_for_last_round += len(cards)
    for card in cards:
        table.reserve[card] += 1
    log.append(f"reserve: {len(cards)} cards drawn for auction")


def _either(counts: Sequence[int]) -> str:
    return " or ".join(str(count) for count in counts)


def _last_draw_rule(table: Table, counts: Sequence[int]) -> str:
    """The last round's draw as the texts fix it, with the numbers of this table."""
    if not counts and table.rules.last_draw and table.parts.reading("short-pile") == "game-ends":
        return (
            f"the pile holds {table.deck} cards, fewer than the last round's {table.rules.last_draw}, "
            "so the game ends at once (the reading this table picked); record `game ends`"
        )
    if not counts:
        empty = "the pile and the cards removed from play are" if table.rules.last_draw else "the pile is"
        return f"{empty} empty: nothing is drawn for the last round's auctions; record `round roles`"
    if not table.rules.last_draw:
        if len(counts) == 1 and counts[0] < table.deck:
            return (
                f"with 2 players the last round auctions {counts[0]} cards drawn from the pile (the "
                "reading this table picked)"
            )
        if len(counts) == 1:
            return f"with 2 players the last round auctions all {counts[0]} cards left in the pile"
        return (
            f"with 2 players the last round auctions {counts[0]} cards (text A: 6 drawn from the "
            f"pile, or all that are left) or all {counts[1]} left in the pile (text B)"
        )
    wanted = table.rules.last_draw
    players = len(table.players)
    if counts[0] == wanted:
        return f"the last round auctions {wanted} cards drawn from the pile ({wanted} for {players} players)"
    return (
        f"the last round auctions {wanted} cards ({wanted} for {players} players), but the pile "
        f"({table.deck}) and the cards removed from play ({table.discards}) hold only {counts[0]}, "
        "all drawn (text A uses the removed cards again; text B ends the game instead: `game ends`)"
    )


def round_roles(table: Table, text: str, log: Log) -> None:
    """Phase 4 begins: every role goes back, then « Dans l'ordre des couleurs ... le contrôleur de
    chaque rôle (majeur et mineur) est déterminé »."""
    before_roles(table, text)
    left = [card for card in COLOURS if table.reserve[card]]
    if left:
        raise IllegalMoveError(
            f"{text!r}: phase 2 is not over, {', '.join(left)} still to auction (the auctions go on "
            "until every group of building cards is sold); record `nobody wins <colour>` for a group "
            "nobody bids on"
        )
    roles.begin(table, log)


def round_ends(table: Table, text: str, log: Log) -> None:
    """The round is over; the next begins with phase 1, where « il reste moins de 4 cartes Cités
    disponibles » ends the game, as does the end of the last round."""
    not_over(table, text)
    if not table.roles_started:
        raise IllegalMoveError(f"{text!r}: phase 4 (`round roles`) comes before the round ends")
    if table.steps:
        raise IllegalMoveError(f"{text!r}: phase 4 is not finished: {roles.waiting(table)}")
    for seat in table.seats.values():
        seat.reserved = seat.wins = seat.builds = seat.places = 0
    table.round += 1
    table.income_paid = table.roles_started = table.auctions_begun = False
    table.drawn_for_last_round = 0
    face_up = min(4, table.rules.cities - len(table.built))
    if table.last_round:
        table.over = True
        log.append("the last round is over: the game ends; `pbem table score`")
    elif face_up < 4:
        table.over = True
        log.append(f"only {face_up} city cards left face up at the start of phase 1: the game ends")
    else:
        log.append(f"round {table.round} begins")


def game_ends(table: Table, text: str, log: Log) -> None:
    """For a table that ends the game itself, e.g. by the second text's « Si il n'y a pas assez de
    cartes dans la pile, le jeu prend fin immédiatement »."""
    not_over(table, text)
    table.over = True
    log.append("the game ends: `pbem table score`")


# --- player actions --------------------------------------------------------------------------------
_RESERVE_RULE = {
    2: "each family puts 2 building cards from its hand face down in the reserve",
    3: "with 2 players each family puts 3 building cards in the reserve",
}


def reserves(table: Table, text: str, seat: Seat, cards: Sequence[str], log: Log) -> None:
    """Phase 1: « Choisit 2 cartes édifices de sa main et les pose face cachée » (3 with 2
    players), exactly that many, all in one action."""
    before_roles(table, text)
    if table.last_round:
        raise IllegalMoveError(
            f"{text!r}: the last round has no phase 1 and no reserve; the groups come from the pile"
        )
    if table.auctions_begun:
        raise IllegalMoveError(f"{text!r}: the auctions have begun; the reserve is closed")
    wanted = table.rules.reserve
    if len(cards) != wanted:
        raise IllegalMoveError(
            f"{text!r}: each family puts {wanted} cards in the reserve each round, no more and no fewer "
            f"({_RESERVE_RULE[wanted]}): name {wanted}, not {len(cards)}"
        )
    if seat.reserved:
        raise IllegalMoveError(
            f"{text!r}: {seat.name} has already put its {seat.reserved} cards in the reserve this round "
            f"(each family puts {wanted} cards in the reserve each round)"
        )
    if any(other.builds or other.places for other in table.seats.values()):
        raise IllegalMoveError(
            f"{text!r}: phase 3 has begun this round (a city or cards are recorded), so the reserve "
            "is closed: phase 1 comes first"
        )
    take_from_hand(table, text, seat, cards)
    seat.reserved += len(cards)
    for card in cards:
        table.reserve[card] += 1
    log.append(f"{seat.name} puts {len(cards)} cards in the reserve")


def wins(table: Table, text: str, seat: Seat | None, card: str, bid: int, *, log: Log) -> None:
    """Phase 2: the winner « Remporte le groupe de cartes, Paie l'enchère à la banque, Prend le pion
    Il Principe, Peut construire 1 cité »; with no bid « le groupe de cartes est retiré du jeu »."""
    before_roles(table, text)
    if table.reserve[card] == 0:
        raise IllegalMoveError(f"{text!r}: no {card} cards in the reserve to auction")
    short = [name for name, other in table.seats.items() if other.reserved != table.rules.reserve]
    if not table.auctions_begun and not table.last_round and short:
        raise IllegalMoveError(
            f"{text!r}: the reserve is not complete: {', '.join(short)} "
            f"{'has' if len(short) == 1 else 'have'} not put {table.rules.reserve} cards in it "
            f"({_RESERVE_RULE[table.rules.reserve]}; the reserve holds "
            f"{table.rules.reserve * len(table.players)} cards, {sum(table.reserve.values())} so far), "
            "and the auction order depends on every card: record `<player> reserves <colour> ...` first"
        )
    first = next_group(table.reserve)
    if card != first:
        raise IllegalMoveError(
            f"{text!r}: the {first} group is auctioned first (the smallest group goes first, ties in "
            "colour order green, white, red, blue, yellow)"
        )
    count = table.reserve[card]
    table.reserve[card] = 0
    table.auctions_begun = True
    if seat is None:
        table.discards += count
        log.append(f"nobody bids: {count} {card} removed from play")
        return
    pay(text, seat, bid, "the winner pays the bid to the bank")
    seat.hand[card] += count
    seat.wins += 1
    table.principe = seat.name
    log.append(f"{seat.name} takes {count} {card} for {bid}, is Il Principe and may build a city")


def _phase3_turn(table: Table, text: str, seat: Seat, building: bool) -> None:
    """« chaque joueur fait une seule action : construire une cité ou jouer des cartes de sa
    main », plus a city for each group won (« Peut construire 1 cité »). Phase 3 follows the
    auctions: while a group is still to be auctioned, only the city a won group gives is built."""
    groups = pending(table)
    if groups and not (building and seat.builds < seat.wins):
        won = (
            "; while they go on, only a family that has won a group builds, the one city its win gives"
            if building
            else ""
        )
        raise IllegalMoveError(
            f"{text!r}: phase 2 is not over: {groups} still to be auctioned (the auctions go on until "
            "every group of building cards is sold); phase 3 comes after: record "
            f"`<player> wins <colour> for <ducats>` or `nobody wins <colour>` for each{won}"
        )
    # One phase 3 action (a city or cards) plus one city per group won: cities + placings <= 1 + wins.
    turns = seat.builds + seat.places + 1
    if turns > 1 + seat.wins or (not building and seat.places):
        raise IllegalMoveError(
            f"{text!r}: {seat.name} has had this round's phase 3 action (one city or cards of one "
            f"colour) and {seat.wins} city for groups won at auction"
        )


def builds(
    table: Table,
    text: str,
    seat: Seat,
    city_name: str,
    *,
    icons: Sequence[str] | None,
    regions: Sequence[str],
    log: Log,
) -> None:
    """« Construire une cité »: play a card per icon, pay the cost, score the card's points,
    place 1 or 2 shields in the regions touching the city; every other family scores its roles in
    the colours used, « 2 PVs pour chaque Rôle Majeur ... 1 PV pour chaque Rôle Mineur ... une
    seule fois par couleur »."""
    before_roles(table, text)
    if table.round == 1 and not table.rules.build_first_round:
        raise IllegalMoveError(f"{text!r}: no city may be built in the first round of the game")
    city = table.parts.cities[city_name]
    if city_name in table.built:
        raise IllegalMoveError(
            f"{text!r}: {city_name} was built by {table.built[city_name]}; each city card is built once"
        )
    if len(table.built) >= table.rules.cities:
        raise IllegalMoveError(f"{text!r}: all {table.rules.cities} city cards in play are built")
    _phase3_turn(table, text, seat, building=True)
    chosen = tuple(sorted(icons, key=COLOURS.index)) if icons is not None else None
    if city.icons is None and chosen is None:
        raise MoveSyntaxError(
            f"{text!r}: the texts do not give {city_name}'s icons; state them: "
            f"`{seat.name} builds {city_name} with <colour> ... shields <region> ...`"
        )
    if (
        city.icons is not None
        and chosen is not None
        and chosen != tuple(sorted(city.icons, key=COLOURS.index))
    ):
        raise IllegalMoveError(f"{text!r}: {city_name}'s card shows {' '.join(city.icons)}")
    cards = city.icons if city.icons is not None else chosen
    assert cards is not None
    problem = check_icons(city.size, cards)
    if problem:
        raise IllegalMoveError(f"{text!r}: {problem}")
    pay(text, seat, city.size.cost, f"a city costs the ducats printed on its card, {city.size.cost}")
    take_from_hand(table, text, seat, cards)
    due = min(city.size.shields, table.parts.box.shields_per_family - seat.shields_placed)
    if len(regions) != due:
        raise IllegalMoveError(
            f"{text!r}: {seat.name} places {due} shield(s) for a {city.size.name} city (1 for a small "
            "city, 2 for a larger one, while shields remain): `shields <region> ...`"
        )
    if city.regions is not None and not set(regions) <= set(city.regions):
        raise IllegalMoveError(
            f"{text!r}: shields go in the regions touching {city_name}: {', '.join(city.regions)}"
        )
    if len(set(regions)) > city.size.regions:
        raise IllegalMoveError(f"{text!r}: a {city.size.name} city touches {city.size.regions} region(s)")
    for place in regions:
        seat.shields[place] = seat.shields.get(place, 0) + 1
    for card in cards:
        seat.up[card] += 1
    seat.vp += city.vp
    seat.builds += 1
    seat.cities.append(city_name)
    table.built[city_name] = seat.name
    table.city_icons[city_name] = cards
    table.city_regions[city_name] = city.regions or tuple(sorted(set(regions)))
    log.append(f"{seat.name} builds {city_name}: -{city.size.cost} ducats, +{city.vp} VP")
    for name, points in role_points(table, seat.name, cards).items():
        table.seats[name].vp += points
        log.append(f"  {name} +{points} VP for roles")


def role_points(table: Table, builder: str, cards: Sequence[str]) -> dict[str, int]:
    """What each family other than the builder scores for its roles in the colours of a city."""
    return city_role_points(table.roles, table.parts.box, builder, cards)


def city_role_points(
    roles: Mapping[str, str | None], box: ComponentSet, builder: str, cards: Sequence[str]
) -> dict[str, int]:
    """``role_points`` from the roles' holders (``blue major`` -> family): what the game by email
    reads from its state without making a table of it."""
    points: dict[str, int] = {}
    for card in COLOURS:
        if card not in cards:
            continue
        for rank in RANKS:
            holder = roles.get(f"{card} {rank}")
            if holder is not None and holder != builder:
                points[holder] = points.get(holder, 0) + box.rules[f"city_{rank}_vp"]
    return points


def places(table: Table, text: str, seat: Seat, count: int, card: str, *, log: Log) -> None:
    """« Le joueur peut jouer autant de cartes Bâtiment qu'il le souhaite mais elles doivent être
    toutes de la même couleur », face up in front of the family."""
    before_roles(table, text)
    if count < 1:
        raise IllegalMoveError(f"{text!r}: place at least one card")
    _phase3_turn(table, text, seat, building=False)
    take_from_hand(table, text, seat, [card] * count)
    seat.up[card] += count
    seat.places += 1
    log.append(f"{seat.name} places {count} {card} face up")


def draws(table: Table, text: str, seat: Seat, count: int, card: str | None, *, log: Log) -> None:
    if count > table.deck:
        raise IllegalMoveError(f"{text!r}: the pile holds {table.deck} cards")
    table.deck -= count
    seat.hand[card or UNKNOWN] += count
    log.append(f"{seat.name} draws {count}")


def adjust(text: str, current: int, change: int, what: str, most: int | None = None) -> int:
    """A correction; the result stays between none and ``most``."""
    result = current + change
    if result < 0:
        raise IllegalMoveError(f"{text!r}: {what} is {current}; {change:+d} would leave fewer than none")
    if most is not None and result > most:
        raise IllegalMoveError(f"{text!r}: {what} would be {result}, more than {most}")
    return result


def hand(table: Table, text: str, seat: Seat, change: int, card: str | None, *, log: Log) -> None:
    if change >= 0:
        seat.hand[card or UNKNOWN] += change
    elif card is not None:
        take_from_hand(table, text, seat, [card] * -change)
    else:
        adjust(text, seat.hand_size, change, f"{seat.name}'s hand")
        left = -change
        for bucket in (UNKNOWN, *COLOURS):
            taken = min(left, seat.hand[bucket])
            seat.hand[bucket] -= taken
            left -= taken
    log.append(f"{seat.name} hand {change:+d}{' ' + card if card else ''}")
