"""Making play entries: a move, a sealed choice, its reveal, a randomness contribution.

Every function checks the request against the current state first and raises IllegalMoveError
or MoveSyntaxError naming the rule, so nothing is signed that the rules would refuse; then it
builds, signs and replays the entry, returning the new ledger and the entry to append. Whatever
the seat owes the hidden decks (its shuffle, its shares of others' draws) is added to the entry
on the way, as its randomness link is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.crypto import sealing
from pbem.crypto.encoding import b64, unb64
from pbem.crypto.identity import SecretKeys
from pbem.engine import decks as hidden_decks
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger, admit, consenting_before_start, contribution, sign_entry
from pbem.engine.ruleset import (
    DECK_DEMANDS,
    CardUse,
    Demand,
    Ruleset,
    explanation,
    free_move_rules,
    hidden_deck_rules,
    is_free,
    require_ruleset,
)
from pbem.engine.seats import check_seat
from pbem.engine.table import Table
from pbem.errors import IllegalMoveError, MoveSyntaxError, UsageError

ROLL = "roll"
FREE_STEP = "any time"  # the step of a free move's demand


@dataclass(frozen=True)
class Seated:
    """A game whose rules can be played and whose seats have all joined."""

    rules: Ruleset
    table: Table


def seated(ledger: Ledger) -> Seated:
    rules = require_ruleset(ledger.info)
    if ledger.table is None:
        if ledger.referee_waiting is not None and not ledger.waiting_to_join:
            raise IllegalMoveError(
                f"the game starts once the referee {ledger.referee_waiting} has accepted "
                f"(pbem referee FILE --as {ledger.referee_waiting})"
            )
        raise IllegalMoveError(
            f"the game starts once every seat has joined; waiting for {', '.join(ledger.waiting_to_join)}"
        )
    return Seated(rules, ledger.table)


def demand_for(ledger: Ledger, seat: str) -> Demand | None:
    game = seated(ledger)
    return next((d for d in tables.demands(game.rules, game.table) if d.seat == seat), None)


def owes_decks(ledger: Ledger, seat: str) -> list[hidden_decks.Owed]:
    """What ``seat`` owes the hidden decks now (empty for a game without one)."""
    table = ledger.table
    if table is None or table.decks is None or seat not in table.seats:
        return []
    return hidden_decks.owed(table.decks, seat)


def owed_reveal(ledger: Ledger, seat: str) -> str | None:
    """The sealed step ``seat`` must reveal now, if any."""
    if ledger.table is None or ledger.rules is None:
        return None
    demand = demand_for(ledger, seat)
    return demand.step if demand is not None and demand.kind == "reveal" else None


def legal(
    ledger: Ledger, seat: str, hand: Mapping[str, str | None] | None = None
) -> tuple[Demand | None, list[str]]:
    """What ``seat`` is asked for now and every text ``play`` accepts for it.

    The rules offer a card play for every card a seat might hold, since they cannot know which
    it holds; given ``hand`` (the seat's hidden cards as read with its key), only the plays of
    cards it holds and can show now are kept."""
    game = seated(ledger)
    demand = demand_for(ledger, seat)
    if demand is None or demand.kind in ("reveal", *DECK_DEMANDS):
        return demand, []
    if demand.kind == "contribute":
        return demand, [ROLL]
    texts = game.rules.legal_moves(game.table.state, seat)
    if hand is not None:
        texts = _playable(game, seat, texts, hand)
    return demand, texts


def uses_cards(ledger: Ledger, seat: str, texts: Sequence[str]) -> bool:
    """Whether any of ``texts``, moves the rules list for ``seat``, plays a hidden card."""
    game = seated(ledger)
    return any(tables.card_uses(game.rules, game.table, seat, game.rules.parse(text)) for text in texts)


def free_move(ledger: Ledger, text: str) -> Any | None:
    """``text`` read as a free move (one a seat may make whenever the game is on, asked or not),
    or None if it is not one."""
    rules = seated(ledger).rules
    if free_move_rules(rules) is None:
        return None
    try:
        move = rules.parse(text)
    except MoveSyntaxError:
        return None
    return move if is_free(rules, move) else None


def free_moves(ledger: Ledger, seat: str) -> list[str]:
    """Every free move ``seat`` may make now (none while an undo waits for consent)."""
    game = seated(ledger)
    free = free_move_rules(game.rules)
    if free is None or seat not in game.table.seats or game.table.undo is not None:
        return []
    return free.free_moves(game.table.state, seat)


def precheck(ledger: Ledger, seat: str, text: str) -> tuple[Demand, Any]:
    """What ``text`` would be for ``seat`` now (its demand and the checked move), or the reason
    the rules refuse it; needs no key, so nothing is asked before a move is known to be legal.
    A free move is answered with a demand of its own: it waits for no turn."""
    game = seated(ledger)
    if free_move(ledger, text) is not None:
        demand = Demand(seat, "move", FREE_STEP, "a move open at any time")
    else:
        demand = tables.demand_of(game.rules, game.table, seat, ("move", "commit", "contribute", "reveal"))
    if demand.kind == "reveal":
        raise IllegalMoveError(f"{seat} must first reveal the sealed {demand.step} (pbem reveal)")
    if demand.kind == "contribute":
        if text.strip().lower() != ROLL:
            raise IllegalMoveError(
                f"{seat} is asked only to add randomness to the {demand.step}: play {ROLL!r}"
            )
        return demand, None
    if demand.kind == "move":
        move = game.rules.parse(text)
        if tables.card_uses(game.rules, game.table, seat, move):
            # Which hidden card the move shows needs the seat's key: checked in full by ``play``.
            return demand, move
        return demand, tables.check_move(game.rules, game.table, seat, text).move
    move = game.rules.parse(text)
    game.rules.check(game.table.state, seat, move)  # checked privately: the value stays sealed
    return demand, move


def play(ledger: Ledger, seat: str, text: str, secret: SecretKeys, at: str) -> tuple[Ledger, dict[str, Any]]:
    game = seated(ledger)
    demand, move = precheck(ledger, seat, text)
    entry: dict[str, Any]
    if demand.kind == "contribute":
        entry = ledger.next_entry(seat, at, "contribute")
        entry["event"] = demand.step
    elif demand.kind == "move":
        entry = ledger.next_entry(seat, at, "move")
        entry["move"] = game.rules.format(move)
        uses = tables.card_uses(game.rules, game.table, seat, move)
        if uses:
            assert game.table.decks is not None
            entry.update(
                hidden_decks.card_fields(
                    game.table.decks,
                    seat,
                    uses,
                    game_id=ledger.game_id,
                    key_material=ledger.secret_seed(seat, secret),
                )
            )
            # The full check, now that the entry says which cards it shows: refused before signing.
            tables.check_move(game.rules, game.table, seat, entry["move"], cards=entry, check=ledger.check)
    else:
        opening = sealing.new_opening(game.rules.format(move))
        entry = ledger.next_entry(seat, at, "commit")
        entry["step"] = demand.step
        entry["commitment"] = sealing.commitment(ledger.game_id, demand.step, seat, opening)
        box = ledger.roster[seat].box_public
        entry["sealed"] = b64(sealing.seal(box, ledger.game_id, demand.step, seat, opening))
        if tables.seals_to_escrow(game.table):
            entry["escrow_sealed"] = b64(_sealed_to_escrow(ledger, seat, demand.step, opening, secret))
    return _sign(ledger, seat, entry, secret)


def _sealed_to_escrow(
    ledger: Ledger, seat: str, step: str, opening: sealing.Opening, secret: SecretKeys
) -> bytes:
    """The opening sealed under ``x * T``, which the seat's deck secret ``x`` gives now and the
    escrow quorum later, should the seat keep its reveal back."""
    from pbem.engine import escrows

    decks = seated(ledger).table.decks
    assert decks is not None
    group = decks.group
    x = hidden_decks.secret_for(ledger.secret_seed(seat, secret), ledger.game_id, seat, group)
    point = group.power(escrows.sealed_point(group, ledger.game_id, step, seat), x)
    return sealing.seal_to_point(group.encode(point), ledger.game_id, step, seat, opening)


def timeout(
    ledger: Ledger, claimant: str, late: str, secret: SecretKeys, at: str
) -> tuple[Ledger, dict[str, Any]]:
    """A claim that ``late`` let its deadline pass; the rules' default is applied for it."""
    demand = check_timeout_now(ledger, claimant, late, at)
    entry = ledger.next_entry(claimant, at, "timeout")
    entry["late"] = late
    entry["step"] = demand.step
    game = seated(ledger)
    uses, missing = tables.default_cards(game.rules, game.table, demand)
    if uses and not missing:
        assert game.table.decks is not None
        entry.update(
            hidden_decks.stand_in_fields(
                game.table.decks,
                late,
                uses,
                game_id=ledger.game_id,
                key_material=ledger.secret_seed(claimant, secret),
            )
        )
    return _sign(ledger, claimant, entry, secret)


def check_timeout_now(ledger: Ledger, claimant: str, late: str, at: str) -> Demand:
    """The demand of ``late`` a timeout claimed by ``claimant`` at ``at`` settles: the first of
    its demands a claim may settle now, or the reason the first of them may not be.

    A seat that cannot act for want of another seat's shares let no deadline pass: no claim is
    made against it here, even in a game whose replay would take one (timeouts=demand)."""
    check_seat(late, ledger.seats)
    game = seated(ledger)
    days = ledger.deadline_days
    owed = [demand for demand in tables.demands(game.rules, game.table) if demand.seat == late]
    if not owed:
        raise IllegalMoveError(f"{late} owes nothing now")
    refusal: IllegalMoveError | None = None
    for demand in owed:
        try:
            waiting = tables.waiting_reason(game.table, demand)
            if waiting is not None:
                raise IllegalMoveError(waiting)
            return tables.check_timeout(
                game.rules, game.table, claimant=claimant, late=late, step=demand.step, at=at, days=days
            )
        except IllegalMoveError as exc:
            refusal = refusal or exc
    assert refusal is not None
    raise refusal


def timeout_claims(ledger: Ledger, at: str) -> dict[str, Demand]:
    """Each seat a timeout may be claimed against at ``at``, with the demand the claim settles
    (what ``timeout`` accepts now, whoever of the other seats claims it)."""
    game = seated(ledger)
    if ledger.deadline_days <= 0:
        return {}
    found: dict[str, Demand] = {}
    for late in dict.fromkeys(demand.seat for demand in tables.demands(game.rules, game.table)):
        claimant = next((seat for seat in ledger.seats if seat != late), None)
        if late not in ledger.seats or claimant is None:
            continue  # the referee: nobody stands in for it
        try:
            found[late] = check_timeout_now(ledger, claimant, late, at)
        except IllegalMoveError:
            continue
    return found


def deadlines(ledger: Ledger) -> dict[str, str]:
    """When each current demand falls due, by demand key (empty if the game has no deadlines);
    none for a demand no timeout ever settles, or one whose seat waits for the others' shares in a
    game whose clock waits with it (timeouts=absent)."""
    game = seated(ledger)
    days = ledger.deadline_days
    found: dict[str, str] = {}
    for demand in tables.demands(game.rules, game.table):
        due = None if tables.untimed(game.table, demand) else tables.deadline(game.table, demand, days)
        if due is not None:
            found[tables.demand_key(demand)] = due
    return found


def check_undo(ledger: Ledger, seat: str) -> int:
    """The seq of the move ``seat`` may ask to undo now, or why it may not."""
    game = seated(ledger)
    last = game.table.last_play
    target = last[0] if last is not None else -1
    tables.request_undo(game.table.snapshot(), seat, target)
    return target


def check_answer(ledger: Ledger, seat: str, agree: bool) -> int:
    """The seq of the move whose undo ``seat`` may answer now (or the proposal it may answer), or
    why it may not."""
    asked = ledger.asked
    if ledger.table is None and asked is not None:
        if seat not in consenting_before_start(ledger) or seat in asked["agreed"]:
            raise IllegalMoveError(f"{seat} has no say left on going on without {asked['drop']}")
        return int(asked["target"])
    table = seated(ledger).table
    undo = table.undo
    if undo is None:
        raise IllegalMoveError("no undo is waiting for consent")
    tables.answer_undo(table.snapshot(), seat, undo["target"], agree)
    return int(undo["target"])


def owed_reveal_or_refuse(ledger: Ledger, seat: str) -> str:
    game = seated(ledger)
    return tables.demand_of(game.rules, game.table, seat, ("reveal",)).step


def ask_undo(ledger: Ledger, seat: str, secret: SecretKeys, at: str) -> tuple[Ledger, dict[str, Any]]:
    """Ask to take back ``seat``'s last move; it is undone once every other seat consents."""
    target = check_undo(ledger, seat)
    entry = ledger.next_entry(seat, at, "undo")
    entry["target"] = target
    return _sign(ledger, seat, entry, secret)


def answer_undo(
    ledger: Ledger, seat: str, agree: bool, secret: SecretKeys, at: str
) -> tuple[Ledger, dict[str, Any]]:
    target = check_answer(ledger, seat, agree)
    entry = ledger.next_entry(seat, at, "consent")
    entry["target"] = target
    entry["agree"] = agree
    return _sign(ledger, seat, entry, secret)


def sealed_value(ledger: Ledger, seat: str, step: str, secret: SecretKeys) -> sealing.Opening:
    """Open ``seat``'s own sealed choice with its key."""
    game = seated(ledger)
    sealed = game.table.sealed.get(step, {}).get(seat)
    if sealed is None:
        raise UsageError(f"{seat} has no sealed {step}")
    try:
        return sealing.unseal(secret.box_secret, unb64(sealed), ledger.game_id, step, seat)
    except ValueError as exc:
        raise IllegalMoveError(f"cannot open {seat}'s sealed {step}: {exc}") from None


def reveal(ledger: Ledger, seat: str, secret: SecretKeys, at: str) -> tuple[Ledger, dict[str, Any]]:
    game = seated(ledger)
    demand = tables.demand_of(game.rules, game.table, seat, ("reveal",))
    opening = sealed_value(ledger, seat, demand.step, secret)
    tables.check_reveal(game.rules, game.table, seat, demand.step, opening)
    entry = ledger.next_entry(seat, at, "reveal")
    entry["step"] = demand.step
    entry["value"] = opening.value
    entry["nonce"] = opening.nonce.hex()
    return _sign(ledger, seat, entry, secret)


def hidden_hand(ledger: Ledger, seat: str, secret: SecretKeys) -> dict[str, str | None]:
    """The hidden cards ``seat`` holds, read with its key: token -> card (None: shares missing)."""
    table = seated(ledger).table
    if table.decks is None:
        return {}
    return hidden_decks.hand(table.decks, seat, ledger.secret_seed(seat, secret), ledger.game_id)


def _playable(game: Seated, seat: str, texts: list[str], hand: Mapping[str, str | None]) -> list[str]:
    if game.table.decks is None:
        return texts
    return playable(game.rules, game.table.state, seat, texts, hand)


def playable(
    rules: Ruleset, state: Any, seat: str, texts: Sequence[str], hand: Mapping[str, str | None]
) -> list[str]:
    """The moves of ``texts`` (listed by the rules for ``seat``) that ``play`` accepts from a seat
    holding ``hand``: every card a move uses is one the seat holds, every card it shows one the
    seat can read, and the rules accept the move once those cards are shown. The rules list a
    card play before its cards are known (a work's value, the colours of a city's cards), so
    only the seat, which reads its own cards, can tell which of them it can make."""
    hidden = hidden_deck_rules(rules)
    if hidden is None:
        return list(texts)
    kept: list[str] = []
    # Many listed moves show the same cards (one city with each set of regions): each set of
    # cards is shown to the rules once.
    states: dict[tuple[str, ...], Any] = {(): state}
    for text in texts:
        move = rules.parse(text)
        uses = hidden.card_uses(state, seat, move)
        if not uses:
            kept.append(text)
            continue
        free = dict(hand)
        shown: tuple[str, ...] = ()
        for use in uses:
            token = _take(use, free)
            if token is None:
                break
            if use.action == "reveal":
                before, shown = states[shown], (*shown, token)
                if shown not in states:
                    states[shown] = hidden.card_revealed(before, token, str(hand[token]))
        else:
            try:
                rules.check(states[shown], seat, move)
            except IllegalMoveError:
                continue
            kept.append(text)
    return kept


def _take(use: CardUse, free: dict[str, str | None]) -> str | None:
    """The token of the card in ``free`` (the hand not yet used by this move) that ``use`` needs,
    taken from it; None if the seat lacks it or cannot read a card the move shows."""
    if use.token is not None:
        if use.token not in free or (use.action == "reveal" and free[use.token] is None):
            return None
        del free[use.token]
        return use.token
    for token, card in free.items():
        if card is not None and card == use.card:
            del free[token]
            return token
    return None


def held(ledger: Ledger, seat: str) -> list[str]:
    """The tokens of the hidden cards ``seat`` holds: public, though the cards are not."""
    table = seated(ledger).table
    if table.decks is None:
        return []
    return [
        hidden_decks.token(deck.deck_id, slot)
        for deck in table.decks.decks.values()
        for slot, holder in sorted(deck.held.items())
        if holder == seat
    ]


def share_waits(ledger: Ledger, seat: str) -> dict[str, list[str]]:
    """For each hidden card ``seat`` holds that nobody can read yet, the seats whose decryption
    shares it waits for (public: who has given a share is in the file)."""
    table = seated(ledger).table
    waits: dict[str, list[str]] = {}
    for token in held(ledger, seat):
        assert table.decks is not None
        deck, slot = hidden_decks.parse_token(table.decks, token)
        missing = hidden_decks.waiting_for(table.decks, deck.deck_id, slot)
        if missing:
            waits[token] = missing
    return waits


def move_notes(ledger: Ledger, texts: Sequence[str], hand: Mapping[str, str | None]) -> dict[str, str]:
    """A few words beside each move that needs them: the card behind each token the move names,
    as the seat's ``hand`` reads it, and what the rules say the move does (``explain``)."""
    game = seated(ledger)
    notes: dict[str, str] = {}
    for text in texts:
        parts = [hand[word] or "" for word in text.split() if word in hand]
        if text != ROLL:
            parts.append(explanation(game.rules, game.table.state, game.rules.parse(text)))
        note = "; ".join(part for part in parts if part)
        if note:
            notes[text] = note
    return notes


def share_wait(ledger: Ledger, token: str) -> str:
    """Whose shares a drawn card still waits for, in words."""
    table = seated(ledger).table
    assert table.decks is not None
    deck, slot = hidden_decks.parse_token(table.decks, token)
    return "waiting for the shares of " + ", ".join(hidden_decks.waiting_for(table.decks, deck.deck_id, slot))


def sync(ledger: Ledger, seat: str, secret: SecretKeys, at: str) -> tuple[Ledger, dict[str, Any]]:
    """An entry carrying only what ``seat`` owes the hidden decks, for when it has nothing else
    to send: the new player's complaint about a share sealed to it too."""
    owed = check_sync(ledger, seat)
    if not owed and complaint_due(ledger, seat, secret) is None:
        raise IllegalMoveError(
            f"{seat} owes the hidden decks nothing now: the shares sealed to you of {seat}'s secret match "
            "its escrow, so there is nothing to complain of"
        )
    return _sign(ledger, seat, ledger.next_entry(seat, at, "sync"), secret)


def check_sync(ledger: Ledger, seat: str) -> list[hidden_decks.Owed]:
    """What ``seat`` owes the decks, refusing before a key is opened when it owes nothing, unless
    its new player may owe a complaint (which only its key can tell)."""
    game = seated(ledger)
    tables.check_no_undo_pending(game.table)
    halted = None if game.table.decks is None else game.table.decks.halted()
    if halted is not None:
        raise IllegalMoveError(halted)
    owed = owes_decks(ledger, seat)
    if not owed and not reshares_to_check(ledger, seat):
        raise IllegalMoveError(f"{seat} owes the hidden decks nothing now")
    return owed


def reshares_to_check(ledger: Ledger, seat: str) -> bool:
    """The new player of ``seat``, handed on by consent, has shares of the seat's secret sealed to
    it that it has signed no entry since: one that does not match the seat's escrow is its
    complaint to make, which only its key can tell, so the file itself never asks for it."""
    decks = ledger.table.decks if ledger.table is not None else None
    escrow = decks.escrow if decks is not None else None
    if escrow is None or escrow.failed is not None or not escrow.reshared.get(seat):
        return False
    for entry in reversed(ledger.entries):
        if any(item.get("seat") == seat for item in entry.get("escrow_reshares", ())):
            return True
        if entry["by"] == seat:
            return False
    return False


def complaint_due(ledger: Ledger, seat: str, secret: SecretKeys) -> str | None:
    """The holder whose share, sealed to ``seat``'s new player, does not match the seat's escrow
    (the complaint the player owes), or None."""
    if not reshares_to_check(ledger, seat):
        return None
    material = ledger.secret_seed(seat, secret)
    return material.bad_share if isinstance(material, hidden_decks.KeyMaterial) else None


def _sign(
    ledger: Ledger, seat: str, entry: dict[str, Any], secret: SecretKeys
) -> tuple[Ledger, dict[str, Any]]:
    if (
        entry["kind"] in hidden_decks.RIDING_KINDS
        and ledger.table is not None
        and ledger.table.decks is not None
    ):
        bad = complaint_due(ledger, seat, secret) if entry["kind"] != "sync" else None
        if bad is not None:
            # the complaint stops the game, so it travels alone, never beside a move it would void
            raise IllegalMoveError(
                f"{bad} sealed you a share of {seat}'s secret that does not match its escrow: send "
                f"your complaint first (pbem sync FILE --as {seat})"
            )
        entry.update(
            hidden_decks.owed_fields(
                ledger.table.decks,
                seat,
                game_id=ledger.game_id,
                key_material=ledger.secret_seed(seat, secret),
            )
        )
    entry["rand"] = contribution(ledger, seat, secret)
    signed = sign_entry(ledger.game_id, entry, secret)
    return admit(ledger, signed), signed


def forced(ledger: Ledger, seat: str) -> str | None:
    """The one move the rules allow ``seat`` now, when it is asked for a move and has no choice
    (the cards of a reserve shown, a pass when nothing else is open), or None. A seat that may
    make a free move first (a gift of gold, say) has a choice."""
    game = seated(ledger)
    demand = demand_for(ledger, seat)
    if demand is None or demand.kind != "move":
        return None
    texts = game.rules.legal_moves(game.table.state, seat)
    return texts[0] if len(texts) == 1 and not free_moves(ledger, seat) else None


def answer_needed(ledger: Ledger, seat: str) -> tuple[str, str] | None:
    """What ``seat`` is asked now that needs no choice, as the entry kind that answers it and its
    move (``reveal``, ``sync``, or ``move`` and the text: its sealed value revealed, what it owes
    the hidden decks, its randomness added, a forced move), or None when it is asked for a choice
    (which carries what it owes) or for nothing."""
    if ledger.table is None or ledger.rules is None or seat not in ledger.seats:
        return None
    game = seated(ledger)
    if game.table.undo is not None or (game.table.decks is not None and game.table.decks.halted()):
        return None
    kinds = {demand.kind for demand in tables.demands(game.rules, game.table) if demand.seat == seat}
    if "reveal" in kinds:
        return ("reveal", "")
    if "move" in kinds:
        only = forced(ledger, seat)
        if only is not None:
            return ("move", only)
    if kinds & {"move", "commit"}:
        # its shares would ride in its move (or sealed choice), but a seat that waits for them to
        # read its own cards cannot choose either: given now, they are what unblocks the other
        return ("sync", "") if owes_decks(ledger, seat) and _awaited(ledger, seat) else None
    if "consent" in kinds:
        return None
    if "contribute" in kinds:
        return ("move", ROLL)
    return ("sync", "") if owes_decks(ledger, seat) else None


def _awaited(ledger: Ledger, seat: str) -> bool:
    """Whether another seat asked for a move or a sealed choice holds a card it cannot read
    until ``seat`` gives its decryption share."""
    game = seated(ledger)
    asked = {
        demand.seat for demand in tables.demands(game.rules, game.table) if demand.kind in ("move", "commit")
    }
    return any(
        seat in missing for other in asked if other != seat for missing in share_waits(ledger, other).values()
    )


def answer(ledger: Ledger, seat: str, secret: SecretKeys, at: str) -> tuple[Ledger, dict[str, Any]] | None:
    """The entry that answers what ``answer_needed`` names, or None."""
    needed = answer_needed(ledger, seat)
    if needed is None:
        return None
    kind, text = needed
    if kind == "reveal":
        return reveal(ledger, seat, secret, at)
    if kind == "sync":
        return sync(ledger, seat, secret, at)
    return play(ledger, seat, text, secret, at)
