"""What came of an entry in a game of Il Principe by email, for ``pbem log``: read from the states
before and after it. A group of cards or a role won at auction (by whom, for how much) or left
by everyone, the roles given and what they did, cities built and turned up, victory points
scored, each round's income and the track at a round's end, the regions' majorities at the end.
Only what lies face up: cards in hands are tokens, and only their number is said.
"""

from __future__ import annotations

from pbem.engine.ruleset import standings
from pbem.games.il_principe import scoring
from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.state import AUCTION, OVER, Game, Player, as_table


def outcomes(before: Game, after: Game) -> list[str]:
    found = _auction(before, after)
    sold = before.auction.lot if before.auction is not None else ""
    for role, seat in after.roles.items():
        if before.roles.get(role) != seat and role != sold:
            found.append(f"{seat} takes the {role} role{_effect(after, role)}")
    for old, new in zip(before.players, after.players, strict=True):
        found += _player(after, old, new)
    found += [f"city turned up: {_city(after, city)}" for city in after.face_up if city not in before.face_up]
    if after.phase == AUCTION and before.phase != AUCTION and any(after.reserve):
        found.append(f"up for auction: {_cards(after.reserve)}")
    if after.round > before.round:
        track = {p.seat: {"total": p.vp} for p in after.players}
        found.append(f"victory points after round {before.round}: {standings(track)}")
        income = _income(after)
        if income and after.phase != OVER:
            found.append(f"round {after.round} begins: {income} ducats to each family")
    if after.phase == OVER and before.phase != OVER:
        found += _regions(after)
    return found


def _auction(before: Game, after: Game) -> list[str]:
    """The auction ``before`` held, if this entry closed it."""
    auction = before.auction
    if auction is None or (after.auction is not None and after.auction.lot == auction.lot):
        return []
    if auction.lot in COLOURS:
        index = COLOURS.index(auction.lot)
        count = before.reserve[index]
        group = f"the {count} {auction.lot} cards" if count != 1 else f"the {auction.lot} card"
        won = [new for old, new in _pairs(before, after) if new.known[index] > old.known[index]]
        if not won:
            return [f"nobody bids on {group}: they leave play"]
        winner = won[0]
    else:
        group = f"the {auction.lot} role"
        holder = after.roles.get(auction.lot, "")
        if not holder:
            return [f"nobody bids on {group}: the tile stays on the board"]
        winner = after.player(holder)
    paid = _paid(before, after, winner.seat)
    principe = ", and becomes Il Principe" if before.principe != after.principe == winner.seat else ""
    effect = "" if auction.lot in COLOURS else _effect(before, auction.lot)
    return [f"{winner.seat} wins {group} for {paid} ducat{'s' if paid != 1 else ''}{principe}{effect}"]


# « Les tuiles de Rôle »: what each role's holder gets, by the kind of its effect.
_EFFECTS = {
    "vp": "+{} VP",
    "ducats": "+{} ducats",
    "draw": "draws {} card",
    "turn-up": "turns {} card face up",
    "shield": "places {} shield",
}


def _effect(game: Game, role: str) -> str:
    kind, amount = game.components.role_effects()[role]
    return f" ({_EFFECTS[kind].format(amount)})" if kind in _EFFECTS else ""


def _paid(before: Game, after: Game, seat: str) -> int:
    """The winning bid: the leader's, or (when the last seat in bid to win) what the winner's
    ducats went down by, less what the rest of the entry gave it (a role's ducats, a round's income)."""
    auction = before.auction
    assert auction is not None
    if auction.leader == seat:
        return auction.price
    spent = before.player(seat).ducats - after.player(seat).ducats
    kind, amount = before.components.role_effects().get(auction.lot, ("", 0))
    if kind == "ducats":
        spent += amount
    if after.round > before.round:
        spent += _income(after)
    return spent


def _player(game: Game, old: Player, new: Player) -> list[str]:
    found = [f"{new.seat} builds {_city(game, city)}" for city in new.cities[len(old.cities) :]]
    for colour, was, now in zip(COLOURS, old.down, new.down, strict=True):
        if now > was:
            found.append(
                f"{new.seat} turns {now - was} {colour} card{'s' if now - was != 1 else ''} face down"
            )
    if new.vp != old.vp:
        found.append(f"{new.seat} {new.vp - old.vp:+d} VP, now {new.vp}")
    return found


def _regions(game: Game) -> list[str]:
    """« Calcul des points de Victoire »: each region's majorities, as the final score counts them."""
    found = []
    for region, points in scoring.regions(as_table(game)).items():
        scored = [f"{seat} {value}" for seat, value in sorted(points.items(), key=lambda i: -i[1]) if value]
        found.append(f"region {region}: {', '.join(scored) if scored else 'no shield, no points'}")
    return found


def _income(game: Game) -> int:
    """The ducats each seat received as ``game``'s round began (none in the last round by text B)."""
    if game.last_round and game.reading("last-round-ducats") == "none":
        return 0
    return game.settings.rules.income


def _pairs(before: Game, after: Game) -> list[tuple[Player, Player]]:
    return list(zip(before.players, after.players, strict=True))


def _city(game: Game, city: str) -> str:
    return game.components.cities[city].name


def _cards(by_colour: tuple[int, ...]) -> str:
    return ", ".join(f"{count} {colour}" for colour, count in zip(COLOURS, by_colour, strict=True) if count)
