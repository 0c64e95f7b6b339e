"""The computer players this home hosts: the seats a computer plays (``pbem new --computer``),
whose keys are kept here, play whenever a command of this home leaves them asked to act (``pbem
play``, ``pbem mail fetch``, the web page): what needs no choice as ``appending.answer_game``
does it, a choice as the computer player makes it, each move through ``pbem play``'s own
function, so it is checked, signed, written and mailed as a player's move is."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.cli.common import info

if TYPE_CHECKING:
    from pbem.engine.ledger import Ledger

MOVES = 400  # moves the computers make in a row at most: a game of computers alone ends first
# Whether the computers are already being played: a move they make runs ``pbem play``, whose
# own call of this module must not start a second round of them.
_PLAYING: ContextVar[bool] = ContextVar("pbem_computers_playing", default=False)
# How a computer chooses a move: the ledger, the seat, its hand as read with its key; the text.
Chooser = Callable[["Ledger", str, dict[str, str | None]], str]


def hosted(ledger: Ledger) -> list[str]:
    """The seats of ``ledger`` a computer plays whose keys this home holds, in seat order."""
    from pbem.cli.reading import own_seats

    if not ledger.computers:
        return []
    own = own_seats(ledger)
    return [seat for seat in ledger.seats if seat in ledger.computers and seat in own]


@contextmanager
def _playing() -> Iterator[None]:
    token = _PLAYING.set(True)
    try:
        yield
    finally:
        _PLAYING.reset(token)


def play_turns(file: Path, *, send: bool, choose: Chooser | None = None) -> int:
    """Every move the computers this home hosts are asked for in ``file``'s game, made, until no
    computer is asked (a player is, or the game is over): the moves made."""
    from pbem.cli.appending import answer_game
    from pbem.cli.reading import own_seats, read_game

    if _PLAYING.get():
        return 0
    made = 0
    with _playing():
        for _ in range(MOVES):
            _, ledger = read_game(file)
            seats = hosted(ledger)
            if not seats or ledger.table is None:
                return made
            # what needs no choice, for every seat of this home: a player's shares at one home
            # are what a computer waits for to read its cards, and the reverse
            if answer_game(file, [seat for seat in ledger.seats if seat in own_seats(ledger)]):
                _, ledger = read_game(file)  # read again only where answers were written
            if not _move_one(file, ledger, seats, send=send, choose=choose or computer_choice):
                return made
            made += 1
    return made


def _move_one(file: Path, ledger: Ledger, seats: list[str], *, send: bool, choose: Chooser) -> bool:
    """One move by the first of ``seats`` asked for a choice that can make it now (its cards
    read); whether one was made."""
    from pbem.cli import play_commands
    from pbem.errors import PbemError

    for seat in seats:
        if not _choosing(ledger, seat):
            continue
        hand = play_commands.seat_hand(ledger, seat, None, file) or {}
        if any(card is None for card in hand.values()):
            continue  # its cards wait for others' shares: it plays once they come
        try:
            text = choose(ledger, seat, hand)
        except PbemError as exc:
            info(f"{seat} (computer) cannot move yet: {exc}")
            continue
        info(f"{seat} (computer) plays {text}")
        play_commands.play(file=file, move=[text], seat=seat, key=None, send=send)
        return True
    return False


def _choosing(ledger: Ledger, seat: str) -> bool:
    """Whether ``seat`` is asked now for a choice: a move, or a sealed choice."""
    from pbem.engine import play as play_mod

    demand = play_mod.demand_for(ledger, seat)
    return demand is not None and demand.kind in ("move", "commit")


def computer_choice(ledger: Ledger, seat: str, hand: dict[str, str | None]) -> str:
    """The computer player's move for ``seat``, from what ``seat`` can see (its own hand, the
    cards shown), searched for a second, or for PBEM_COMPUTER_PLAYOUTS playouts."""
    from pbem.engine import computer_seat

    return computer_seat.choice(ledger, seat, hand, playouts=playouts()).move


def playouts() -> int | None:
    """The playouts a computer searches per move, PBEM_COMPUTER_PLAYOUTS; None: a time budget."""
    import os

    from pbem.errors import UsageError

    text = os.environ.get("PBEM_COMPUTER_PLAYOUTS", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise UsageError(
            f"PBEM_COMPUTER_PLAYOUTS must be a whole number of playouts, at least 1, not {text!r}"
        )
    return int(text)
