"""Phase 4, "Distribution des rôles": who takes each role tile, colour by colour, the auctions
for tied majorities, the half of the cards turned face down, and each role's effect.

The tracker works through the colours itself and stops where the table decides: an auction
between tied players, the green role's card to turn up, the blue role's region.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.errors import IllegalMoveError
from pbem.games.il_principe.components import COLOURS
from pbem.games.il_principe.table.state import UNKNOWN, Step, Table


def turned_down(face_up: int) -> int:
    """« il doit retourner face cachée la moitié (arrondie au-dessus) des cartes Bâtiment »."""
    return (face_up + 1) // 2


def role_label(table: Table, role: str) -> str:
    colour, rank = role.split()
    return f"{role} ({table.parts.box.role_names()[colour, rank]})"


@dataclass(frozen=True)
class Majority:
    """The holders a colour's face-up cards give, before any auction (cases a, b and c)."""

    colour: str
    major: tuple[str, ...]  # one player takes it; several bid for it; none: it stays
    minor: tuple[str, ...]
    reading: str


def majority(table: Table, colour: str) -> Majority:
    """« Les Rôles sont distribués selon le nombre de cartes Bâtiment face visible »: a) one most
    and one second: major and minor; b) one most, several second: the minor is auctioned between
    them; c) several most: the major is auctioned between them, « Le Rôle Mineur reste sur le
    plateau ». A family without a face-up card of the colour has no majority in it."""
    counts = {name: seat.up[colour] for name, seat in table.seats.items() if seat.up[colour] > 0}
    return majority_of(colour, counts, table.players, table.rules.minor_roles)


def majority_of(
    colour: str, counts: Mapping[str, int], players: Sequence[str], minor_roles: bool
) -> Majority:
    """``majority`` from each family's face-up cards of the colour (``counts``, only those with
    one): what the game by email reads from its state without making a table of it."""
    levels = sorted(set(counts.values()), reverse=True)
    if not levels:
        return Majority(colour, (), (), "no face-up cards: both tiles stay on the board")
    first = tuple(name for name in players if counts.get(name) == levels[0])
    if len(first) > 1:
        return Majority(colour, first, (), f"{len(first)} tied for the most ({levels[0]}): case c")
    if not minor_roles or len(levels) < 2:
        why = "no minor roles with 2 players" if not minor_roles else "nobody second"
        return Majority(colour, first, (), f"most {levels[0]}; {why}")
    second = tuple(name for name in players if counts.get(name) == levels[1])
    case = "a" if len(second) == 1 else "b"
    return Majority(colour, first, second, f"most {levels[0]}, second {levels[1]}: case {case}")


def plan(table: Table, colour: str) -> list[Step]:
    return steps(majority(table, colour))


def steps(found: Majority) -> list[Step]:
    """What phase 4 does for a colour: each role its one holder is given, or auctioned between
    the families tied for it."""
    colour = found.colour
    planned: list[Step] = []
    for rank, players in (("major", found.major), ("minor", found.minor)):
        if players:
            planned.append(Step("give" if len(players) == 1 else "auction", f"{colour} {rank}", players))
    return planned


def begin(table: Table, log: list[str]) -> None:
    """« Chaque joueur replace les tuiles des Rôles », then the colours in order."""
    table.roles = {}
    table.roles_started = True
    table.colours_left = list(COLOURS)
    table.steps = []
    run(table, log)


def waiting(table: Table) -> str | None:
    """What phase 4 waits for, as a sentence with the actions that answer it."""
    if not table.steps:
        return None
    step = table.steps[0]
    colour = step.role.split()[0]
    if step.kind == "auction":
        return (
            f"{role_label(table, step.role)} is auctioned between {', '.join(step.players)}: record "
            f"`<player> takes {step.role} for <ducats>` or `nobody takes {step.role}`"
        )
    if table.parts.box.role_effects()[step.role][0] == "turn-up":
        who = step.players[0]
        return f"{who} turns up a face-down card (not {colour}): `{who} turns up <colour>`"
    return f"{step.players[0]} places a shield: `{step.players[0]} shield <region>`"


def give(table: Table, role: str, player: str, log: list[str]) -> None:
    """The holder takes the tile; « Lorsqu'un joueur gagne une tuile de Rôle Majeur, il doit
    retourner face cachée la moitié (arrondie au-dessus) des cartes » of the colour; then the
    effect, « le joueur contrôlant le Rôle Majeur en premier »."""
    colour, rank = role.split()
    seat = table.seats[player]
    table.roles[role] = player
    note = ""
    if rank == "major":
        turned = turned_down(seat.up[colour])
        seat.up[colour] -= turned
        seat.down[colour] += turned
        note = f", turns {turned} {colour} face down"
    log.append(f"{role_label(table, role)}: {player}{note}")
    table.steps.insert(0, Step("effect", role, (player,)))


def effect(table: Table, step: Step, log: list[str]) -> bool:
    """Carry out an effect that needs no choice; False if the table must choose. What each role
    does is the template's (``effect``, ``amount``): the tiles' table in "Les tuiles de Rôle"."""
    colour = step.role.split()[0]
    kind, amount = table.parts.box.role_effects()[step.role]
    seat = table.seats[step.players[0]]
    if kind == "vp":
        seat.vp += amount
        log.append(f"  {seat.name} +{amount} VP")
    elif kind == "draw":
        drawn = min(amount, table.deck)
        if drawn:
            table.deck -= drawn
            seat.hand[UNKNOWN] += drawn
            log.append(f"  {seat.name} draws {drawn} card{'s' if drawn > 1 else ''}")
        else:
            log.append(f"  {seat.name} draws nothing: the pile is empty")
    elif kind == "ducats":
        seat.ducats += amount
        log.append(f"  {seat.name} +{amount} ducats")
    elif kind == "turn-up":
        if any(seat.down[other] for other in COLOURS if other != colour):
            return False
        log.append(f"  {seat.name} has no face-down card but {colour} to turn up")
    elif seat.shields_placed < table.parts.box.shields_per_family:
        return False
    else:
        log.append(f"  {seat.name} has no shield left to place")
    return True


def run(table: Table, log: list[str]) -> None:
    """Work through phase 4 until the table must decide, or every colour is done."""
    while True:
        if not table.steps:
            if not table.colours_left:
                return
            colour = table.colours_left.pop(0)
            table.steps = plan(table, colour)
            if not table.steps:
                log.append(f"{colour}: {majority(table, colour).reading}")
            continue
        step = table.steps[0]
        if step.kind == "auction":
            return
        table.steps.pop(0)
        if step.kind == "give":
            give(table, step.role, step.players[0], log)
        elif not effect(table, step, log):
            table.steps.insert(0, step)
            return


def _head(table: Table, text: str, kind: str, role_effect: str | None = None) -> Step:
    if not table.steps:
        raise IllegalMoveError(f"{text!r}: phase 4 is not waiting for anything: no role is being handed out")
    step = table.steps[0]
    effects = table.parts.box.role_effects()
    if step.kind != kind or (role_effect is not None and effects[step.role][0] != role_effect):
        raise IllegalMoveError(f"{text!r}: phase 4 waits for this first: {waiting(table)}")
    return step


def take(table: Table, text: str, player: str, role: str, bid: int, *, log: list[str]) -> None:
    """An auction for a tied role: « seuls les joueurs majoritaires participent »; the winner
    « paie la somme à la banque, gagne la tuile du Rôle et le pion Il Principe »."""
    step = _head(table, text, "auction")
    if step.role != role:
        raise IllegalMoveError(f"{text!r}: phase 4 waits for this first: {waiting(table)}")
    if player not in step.players:
        raise IllegalMoveError(
            f"{text!r}: only {', '.join(step.players)} may bid for {role}: only the players tied for "
            "the role bid for it"
        )
    seat = table.seats[player]
    if bid > seat.ducats:
        raise IllegalMoveError(f"{text!r}: {player} has {seat.ducats} ducats, cannot pay {bid}")
    seat.ducats -= bid
    table.principe = player
    table.steps.pop(0)
    give(table, role, player, log)
    run(table, log)


def nobody_takes(table: Table, text: str, role: str, log: list[str]) -> None:
    """« Si tout le monde passe (pas d'enchère) la tuile de Rôle reste sur le plateau »."""
    step = _head(table, text, "auction")
    if step.role != role:
        raise IllegalMoveError(f"{text!r}: phase 4 waits for this first: {waiting(table)}")
    table.steps.pop(0)
    log.append(f"{role_label(table, role)}: nobody bid, it stays on the board")
    run(table, log)


def turn_up(table: Table, text: str, player: str, colour: str | None, log: list[str]) -> None:
    """Green: « Le joueur peut retourner l'une de ses cartes non-verte face visible » (may)."""
    step = _head(table, text, "effect", "turn-up")
    if step.players[0] != player:
        raise IllegalMoveError(f"{text!r}: phase 4 waits for this first: {waiting(table)}")
    seat = table.seats[player]
    own = step.role.split()[0]
    if colour is not None:
        if colour == own:
            raise IllegalMoveError(f"{text!r}: the {own} role turns up a card of any colour but {own}")
        if seat.down[colour] == 0:
            raise IllegalMoveError(f"{text!r}: {player} has no face-down {colour} card")
        seat.down[colour] -= 1
        seat.up[colour] += 1
    log.append(f"  {player} turns up {colour or 'nothing'}")
    table.steps.pop(0)
    run(table, log)


def shield(table: Table, text: str, player: str, region: str, log: list[str]) -> None:
    """Blue: « place l'un de ses blasons dans n'importe quelle région »."""
    step = _head(table, text, "effect", "shield")
    if step.players[0] != player:
        raise IllegalMoveError(f"{text!r}: phase 4 waits for this first: {waiting(table)}")
    seat = table.seats[player]
    seat.shields[region] = seat.shields.get(region, 0) + 1
    log.append(f"  {player} places a shield in {region}")
    table.steps.pop(0)
    run(table, log)
