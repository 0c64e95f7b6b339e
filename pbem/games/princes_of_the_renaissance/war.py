"""War: the third action (2016 rulebook "Начать Войну" and the cards and tiles that act in it;
seed 004 §5 Action 3).

The stages, in the rulebook's order: the marker moves and two cities are named; the window in
which Veto and Bad Weather may be played; the condottiere auctions in influence, attacker first;
each city pays its condottiere; the Holy League; Bribe Troops in the order attacker, defender,
Pope; the dice (from every player's randomness); Ludovico Sforza's reroll; the outcome.

Over email a window is offered only to the players who hold a card or tile that can act in it,
in turn order from the player who started the war, so nobody else spends an email on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.crypto.randomness import Draws
from pbem.engine.ruleset import RandomRequest
from pbem.errors import IllegalMoveError
from pbem.games.princes_of_the_renaissance import decade, deck
from pbem.games.princes_of_the_renaissance.components import CITIES
from pbem.games.princes_of_the_renaissance.state import (
    ATTACKER,
    BRIBES,
    DEFENDER,
    DICE,
    LEAGUE,
    REROLL,
    WAR,
    WINDOW,
    Game,
    Lot,
    War,
)
from pbem.kit.auction import Auction
from pbem.kit.seats import after, clockwise


def limit(game: Game) -> int:
    """4 wars a decade with fewer than 5 players, otherwise 5."""
    parts = game.components
    return parts.rule("wars_small") if len(game.seats) < 5 else parts.rule("wars_large")


def check_cities(game: Game, attacker: str, defender: str) -> None:
    for city in (attacker, defender):
        if city not in CITIES:
            raise IllegalMoveError(f"no city {city!r}: the cities are {', '.join(CITIES)}")
    if attacker == defender:
        raise IllegalMoveError("a war needs two different cities: attacker and defender")


def check_declare(game: Game, attacker: str, defender: str) -> None:
    check_cities(game, attacker, defender)
    if game.wars >= limit(game):
        raise IllegalMoveError(
            f"{game.wars} wars have been fought this decade, the limit with {len(game.seats)} players"
        )


def check_war(game: Game, seat: str, attacker: str, defender: str) -> None:
    decade.check_action_turn(game, seat)
    check_declare(game, attacker, defender)


def start_war(game: Game, seat: str, attacker: str, defender: str) -> None:
    start(game, seat, attacker, defender, counted=True)


def start_war_card(game: Game, seat: str, attacker: str, defender: str) -> None:
    game.follow_ups.pop(0)
    deck.play(game, seat, "start-war")
    game.end_offered = False  # after this war, the window opens again if another card is held
    start(game, seat, attacker, defender, counted=False)


def start(game: Game, seat: str, attacker: str, defender: str, *, counted: bool) -> None:
    if counted:
        game.wars += 1
    game.wars_started += 1
    game.war = War(game.wars_started, attacker, defender, seat, counted, WINDOW)
    names = f"{game.components.city(attacker).name} attacks {game.components.city(defender).name}"
    how = "" if counted else " (Start War card: the marker does not move)"
    game.events.append(f"{seat} starts a war: {names}{how}")
    game.phase = WAR
    game.war.asked = [s for s in clockwise(game.order, seat) if _can_interrupt(game, s)]
    advance(game)


def _can_interrupt(game: Game, seat: str) -> bool:
    """Who holds a Veto or a Bad Weather is secret: every player holding a card face down is
    asked, so being asked shows nothing but the number of cards, which is public."""
    return deck.face_down(game, seat) > 0


def current(game: Game) -> War:
    assert game.war is not None
    return game.war


def advance(game: Game) -> None:
    """Move the war on until someone must decide something or the dice are needed."""
    if not waiting(game):
        move_on(game)


def waiting(game: Game) -> bool:
    """Whether the war still waits in its stage: for those still asked (who can still play a
    card), for a Holy League or a reroll still to be decided, or for the dice once no bribe is
    left to play. False when the stage is over and the war moves on (``move_on``). It changes
    nothing but the war."""
    war = current(game)
    if war.stage == WINDOW:
        war.asked = [seat for seat in war.asked if _can_interrupt(game, seat)]
        return bool(war.asked)
    if war.stage == LEAGUE:
        return bool(war.asked)
    if war.stage == BRIBES:
        war.asked = [seat for seat in war.asked if deck.face_down(game, seat)]  # as in the window
        if not war.asked:
            war.stage = DICE
        return True
    return war.stage != REROLL or bool(war.asked)


def move_on(game: Game) -> None:
    """The war's stage is over (``waiting``): the condottiere auctions after the window, the
    bribes after the Holy League, the outcome once the dice stand."""
    war = current(game)
    if war.stage == WINDOW:
        _condottiere_auction(game, ATTACKER)
    elif war.stage == LEAGUE:
        _bribes(game)
    elif war.stage == REROLL:
        finish(game)


# --- the window: Veto and Bad Weather --------------------------------------------------------------


def check_window(game: Game, seat: str, card: str, city: str = "") -> None:
    war = _in_stage(game, WINDOW, seat, "play Veto or Bad Weather")
    if not deck.showing(game, seat, card):
        raise IllegalMoveError(f"{seat} holds no {game.components.card(card).name}")
    if card == "bad-weather" and city not in (war.attacker, war.defender):
        raise IllegalMoveError(
            f"Bad Weather names one of the warring cities: {war.attacker} or {war.defender}"
        )


def veto(game: Game, seat: str) -> None:
    war = current(game)
    deck.play(game, seat, "veto")
    cancelled = " (the Bad Weather played is discarded without effect)" if war.bad_weather else ""
    game.events.append(f"{seat} plays Veto: the war is a tie; the marker stays{cancelled}")
    end(game)


def bad_weather(game: Game, seat: str, city: str) -> None:
    war = current(game)
    deck.play(game, seat, "bad-weather")
    war.bad_weather.append(city)
    side = "attack" if city == war.attacker else "defence"
    game.events.append(f"{seat} plays Bad Weather on {game.components.city(city).name}: -1 {side}")
    # Everyone who could still answer it with a Veto or Bad Weather is asked again, from the next
    # player on; the player who played it keeps its turn first.
    later = clockwise(game.order, after(game.order, seat))
    war.asked = [seat] + [other for other in later if other != seat and _can_interrupt(game, other)]
    advance(game)


def check_pass(game: Game, seat: str) -> None:
    _in_stage(game, current(game).stage, seat, "decide")


def decline(game: Game, seat: str) -> None:
    """A pass in a war's window, Holy League, bribes or reroll."""
    if declined(game, seat):
        move_on(game)


def declined(game: Game, seat: str) -> bool:
    """``seat`` passes (``decline``); True when the war moves on (``move_on``). It changes nothing
    but the war and the events."""
    war = current(game)
    war.asked.remove(seat)
    if war.stage == REROLL:
        game.events.append(f"{seat} lets the dice stand")
    return not waiting(game)


# --- condottiere auctions ---------------------------------------------------------------------------


def _condottiere_auction(game: Game, side: str) -> None:
    """Influence, among players with a Troop tile; the war's starter may bid first or pass."""
    war = current(game)
    before = game.order[game.order.index(war.starter) - 1]
    # Nobody leads at first, and any bid, 0 included, is above the opening -1.
    lot = Lot(side, side, "influence", war.starter)
    decade.open_auction(game, Auction(lot, tuple(game.order), before, price=-1))
    city = war.attacker if side == ATTACKER else war.defender
    game.events.append(f"the auction for {game.components.city(city).name}'s condottiere ({side}) begins")
    if decade.next_bidder(game):
        condottiere_won(game)


def condottiere_won(game: Game) -> None:
    """The condottiere auction is over: the winner (if any) pays and takes the side; then the
    next step."""
    war = current(game)
    if game.auction is not None and game.auction.winner:
        decade.pay(game, game.auction)
    auction = decade.close_auction(game)
    side, seat = auction.lot.kind, auction.winner
    game.phase = WAR
    if seat:
        if side == ATTACKER:
            war.attacker_condottiere = seat
        else:
            war.defender_condottiere = seat
    else:
        game.events.append(f"nobody bids to be the {side}'s condottiere")
    if side == ATTACKER:
        _condottiere_auction(game, DEFENDER)
        return
    if not war.attacker_condottiere and not war.defender_condottiere:
        game.events.append("no condottiere on either side: the war is a tie")
        end(game)
        return
    for condottiere, city in (
        (war.attacker_condottiere, war.attacker),
        (war.defender_condottiere, war.defender),
    ):
        if condottiere:
            pay = game.status[city]
            game.players[condottiere].pay += pay
            game.events.append(
                f"{game.components.city(city).name} pays {condottiere} {pay} gold (at the decade's end)"
            )
    pope = game.pope
    fighting = (war.attacker_condottiere, war.defender_condottiere)
    if (
        pope
        and pope not in fighting
        and game.players[pope].troops
        and "holy-league" not in game.players[pope].used
    ):
        war.stage = LEAGUE
        war.asked = [pope]
        return
    _bribes(game)


# --- the Holy League and Bribe Troops -----------------------------------------------------------------


def check_league(game: Game, seat: str, side: str) -> None:
    _in_stage(game, LEAGUE, seat, "join a side with the Pope")
    if side not in (ATTACKER, DEFENDER):
        raise IllegalMoveError("the Holy League joins the attacker or the defender")


def league(game: Game, seat: str, side: str) -> None:
    war = current(game)
    war.league, war.pope = side, seat
    war.asked = []
    game.players[seat].used.append("holy-league")
    game.events.append(f"{seat} forms a Holy League with the {side}: the Pope's troops join, unmodified")
    advance(game)


def _bribes(game: Game) -> None:
    war = current(game)
    war.stage = BRIBES
    war.asked = [seat for seat in (war.attacker_condottiere, war.defender_condottiere, war.pope) if seat]
    advance(game)


def targets(game: Game) -> list[str]:
    """Every Troop tile in this war not yet bribed, as ``seat/troop``."""
    war = current(game)
    sides = [seat for seat in (war.attacker_condottiere, war.defender_condottiere, war.pope) if seat]
    found = [f"{seat}/{troop}" for seat in sides for troop in game.players[seat].troops]
    return [target for target in found if target not in war.bribed]


def check_bribe(game: Game, seat: str, owner: str, troop: str) -> None:
    _in_stage(game, BRIBES, seat, "play Bribe Troops")
    if not deck.showing(game, seat, "bribe-troops"):
        raise IllegalMoveError(f"{seat} holds no Bribe Troops")
    if f"{owner}/{troop}" not in targets(game):
        raise IllegalMoveError(f"{owner}'s {troop} is not a Troop tile in this war still to be bribed")


def bribe(game: Game, seat: str, owner: str, troop: str) -> None:
    war = current(game)
    deck.play(game, seat, "bribe-troops")
    war.bribed.append(f"{owner}/{troop}")
    game.events.append(f"{seat} bribes {owner}'s {game.components.troop(troop).name}: it counts for nothing")
    advance(game)


# --- dice, reroll and the outcome ----------------------------------------------------------------------


def random_requests(game: Game) -> list[RandomRequest]:
    war = game.war
    if war is None or war.stage != DICE:
        return []
    return [RandomRequest(f"war {war.number} {'reroll' if war.rerolled else 'dice'}")]


def roll(game: Game, draws: Draws) -> None:
    war = current(game)
    war.dice = [draws.die() for _ in range(4)]
    holder = _ludovico(game)
    if holder and not war.rerolled:
        war.stage = REROLL
        war.asked = [holder]
        game.events.append(f"dice: {_dice_text(war)}; {holder} may have them rolled again (Ludovico Sforza)")
        return
    war.stage = REROLL
    war.asked = []
    finish(game)


def _ludovico(game: Game) -> str:
    for seat in game.order:
        for tile in game.players[seat].city_tiles:
            if (
                game.components.city_tile(tile).ability == "ludovico-sforza"
                and tile not in game.players[seat].used
            ):
                return seat
    return ""


def check_reroll(game: Game, seat: str) -> None:
    _in_stage(game, REROLL, seat, "have the dice rolled again")


def reroll(game: Game, seat: str) -> None:
    war = current(game)
    tile = next(
        t for t in game.players[seat].city_tiles if game.components.city_tile(t).ability == "ludovico-sforza"
    )
    game.players[seat].used.append(tile)
    war.rerolled = True
    war.stage = DICE
    war.asked = []
    game.events.append(
        f"{seat} uses Ludovico Sforza: the dice (battle and counter-attack) are rolled again; "
        "the new roll stands"
    )


def _dice_text(war: War) -> str:
    return f"attack {war.dice[0]}, defence {war.dice[1]} (counter-attack {war.dice[2]}, {war.dice[3]})"


@dataclass(frozen=True)
class Strength:
    attack: int
    defence: int


def strength(game: Game, side: str) -> Strength:
    """A side's attack and defence values before the die: its condottiere's Troop tiles and their
    bonuses, family and City tile modifiers, Bad Weather, the Holy League's unmodified troops;
    an unrepresented city fights with +3."""
    war = current(game)
    city = war.attacker if side == ATTACKER else war.defender
    seat = war.attacker_condottiere if side == ATTACKER else war.defender_condottiere
    attack = defence = 0
    if not seat:
        attack = defence = game.components.rule("unrepresented_bonus")
    else:
        attack, defence = _troops(game, seat, modified=True)
        if game.players[seat].family == "este":
            defence += 1  # d'Este, both sides: "+1 к Обороне ... когда Вы - один из двух ... Кондотьеров"
        abilities = [game.components.city_tile(t).ability for t in game.players[seat].city_tiles]
        standing = [t for t in game.players[seat].troops if f"{seat}/{t}" not in war.bribed]
        if "caterina-sforza" in abilities and standing:
            defence += 2
    if war.league == side:
        league_attack, league_defence = _troops(game, war.pope, modified=False)
        attack += league_attack
        defence += league_defence
    # Bad Weather: the city's "Кондотьер ... получает -1"; a city without one is not affected
    weather = war.bad_weather.count(city) if seat else 0
    if side == ATTACKER:
        attack -= weather
    else:
        defence -= weather
    return Strength(attack, defence)


def _troops(game: Game, seat: str, *, modified: bool) -> tuple[int, int]:
    war = current(game)
    abilities = [game.components.city_tile(t).ability for t in game.players[seat].city_tiles]
    attack = defence = 0
    for troop_id in game.players[seat].troops:
        if f"{seat}/{troop_id}" in war.bribed:
            continue  # a bribed tile and every bonus tied to it count for nothing
        troop = game.components.troop(troop_id)
        attack += troop.attack
        defence += troop.defence
        if not modified:
            continue
        bonus = {
            "infantry": ("spanish-infantry", 1, 1),
            "pikemen": ("swiss-mercenaries", 1, 1),
            "cavalry": ("armourer", 1, 0),
            "crossbowmen": ("genoese-crossbow", 0, 1),
        }.get(troop_id)
        if bonus and bonus[0] in abilities:
            attack += bonus[1]
            defence += bonus[2]
    return attack, defence


@dataclass(frozen=True)
class Outcome:
    winner: str  # attacker, defender, or "" for a tie
    winning_total: int
    losing_total: int
    text: str


def outcome(game: Game) -> Outcome:
    """The battle, then the counter-attack if the attacker did not win outright."""
    war = current(game)
    attacker, defender = strength(game, ATTACKER), strength(game, DEFENDER)
    first = (attacker.attack + war.dice[0], defender.defence + war.dice[1])
    text = f"battle: attack {first[0]} against defence {first[1]}"
    if first[0] > first[1]:
        return Outcome(ATTACKER, first[0], first[1], text)
    second = (defender.attack + war.dice[2], attacker.defence + war.dice[3])
    text += f"; counter-attack: {second[0]} against {second[1]}"
    if second[0] > second[1]:
        return Outcome(DEFENDER, second[0], second[1], text)
    return Outcome("", second[0], second[1], text)


def finish(game: Game) -> None:
    war = current(game)
    result = outcome(game)
    if not result.winner:
        game.events.append(f"{result.text}: the war is a tie")
        end(game)
        return
    win_city, lose_city = (
        (war.attacker, war.defender) if result.winner == ATTACKER else (war.defender, war.attacker)
    )
    swing = 2 if result.winning_total >= 2 * result.losing_total else 1
    low, high = game.components.rule("status_min"), game.components.rule("status_max")
    was = game.status[win_city], game.status[lose_city]
    game.status[win_city] = min(high, game.status[win_city] + swing)
    game.status[lose_city] = max(low, game.status[lose_city] - swing)
    condottiere = war.attacker_condottiere if result.winner == ATTACKER else war.defender_condottiere
    counter = ""
    if condottiere:
        game.players[condottiere].victories += 1
        counter = f"; {condottiere} takes a War Victory counter"
    names = game.components.city(win_city).name, game.components.city(lose_city).name
    # a city at the end of the track stays there: say what changed, not the swing
    gained, lost = game.status[win_city] - was[0], was[1] - game.status[lose_city]
    won = f"+{gained}, now {game.status[win_city]}" if gained else f"already at {high}, the highest"
    fell = f"-{lost}, now {game.status[lose_city]}" if lost else f"already at {low}, the lowest"
    game.events.append(f"{result.text}: {names[0]} wins ({won}), {names[1]} loses ({fell}){counter}")
    end(game)


def end(game: Game) -> None:
    game.war = None
    decade.after_war(game)


def _in_stage(game: Game, stage: str, seat: str, what: str) -> War:
    war = game.war
    if game.phase != WAR or war is None or war.stage != stage:
        raise IllegalMoveError(f"there is no war waiting for someone to {what}")
    if not war.asked or war.asked[0] != seat:
        asked = war.asked[0] if war.asked else "nobody"
        raise IllegalMoveError(f"it is {asked}'s turn in the war's {stage}, not {seat}'s")
    return war
