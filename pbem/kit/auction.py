"""One open ascending auction: the seats taking part bid in turn, clockwise, each bid above the
last, and a pass is final for the lot; it ends when nobody but the leader is left.

What the games do differently is given, not written again: what the lot is (``lot``, any
value the game likes), who takes part (``among``), the opening price and whether the opener leads
at it (``price``, ``leader``), how much a bid must add (``Raise``), who is passed over without
being asked (the game passes them, ``passing``), what an auction nobody bid in leaves (``winner``
is ""), and the payment, which is the game's once the auction is ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from pbem.kit.frozen import evolve
from pbem.kit.seats import after

Lot = TypeVar("Lot")


@dataclass(frozen=True)
class Raise:
    """How much a bid must add to the price: exactly ``step`` (``exact``) or ``step`` or more.
    Before anyone leads, the opening price itself may be bid."""

    step: int = 1
    exact: bool = False

    def least(self, auction: Auction[Lot]) -> int:
        """The lowest bid ``auction`` takes now."""
        return auction.price + self.step if auction.leader else auction.price

    def allows(self, auction: Auction[Lot], amount: int) -> bool:
        least = self.least(auction)
        return amount == least if self.exact else amount >= least

    def reaches(self, opening: int, price: int) -> bool:
        """Whether an auction opened (and led) at ``opening`` can end at ``price``."""
        if price < opening:
            return False
        return (price - opening) % self.step == 0 if self.exact else True


@dataclass(frozen=True)
class Auction(Generic[Lot]):
    lot: Lot
    among: tuple[str, ...]  # who takes part, clockwise; the turn goes round among them
    turn: str  # who bids or passes next
    leader: str = ""  # who made the highest bid, "" before anyone has
    price: int = 0  # the highest bid, or the opening price before anyone has bid
    passed: tuple[str, ...] = ()  # who has passed: a pass is final for this lot

    @property
    def left(self) -> tuple[str, ...]:
        """Who has not passed, clockwise."""
        passed = self.passed
        return tuple([seat for seat in self.among if seat not in passed])

    @property
    def rivals(self) -> tuple[str, ...]:
        """Who may still outbid the leader."""
        passed, leader = self.passed, self.leader
        return tuple([seat for seat in self.among if seat not in passed and seat != leader])

    @property
    def over(self) -> bool:
        """Nobody is left to outbid the leader, or everybody passed before anyone bid."""
        passed, leader = self.passed, self.leader
        # asked after every bid and pass: all() over a generator takes four times as long
        for seat in self.among:  # noqa: SIM110
            if seat != leader and seat not in passed:
                return False
        return True

    @property
    def winner(self) -> str:
        """Who wins once the auction is over: the leader, "" when nobody bid."""
        return self.leader

    def bid(self, seat: str, amount: int) -> Auction[Lot]:
        return evolve(self, leader=seat, price=amount, turn=seat)

    def passing(self, *seats: str) -> Auction[Lot]:
        """``seats`` pass; the turn stays until ``onward`` moves it."""
        return evolve(self, passed=(*self.passed, *seats))

    def next_seat(self) -> str:
        """Who is asked after the current turn: the next rival clockwise, "" once it is over."""
        rivals = self.rivals
        return after(self.among, self.turn, rivals) if rivals else ""

    def onward(self) -> Auction[Lot]:
        """The turn moved to ``next_seat``; the auction must not be over."""
        return evolve(self, turn=self.next_seat())

    def answered(self, seat: str, amount: int | None) -> Auction[Lot]:
        """``seat``'s bid of ``amount``, or its pass where None, and the turn moved on unless that
        ends the auction: ``bid`` or ``passing``, then ``onward`` if it is not ``over``, in one
        copy (a random playout answers thousands of auctions)."""
        among, passed, leader, turn = self.among, self.passed, self.leader, self.turn
        if amount is None:
            passed = (*passed, seat)
        else:
            leader = turn = seat
        if turn in among:
            # ``next_seat`` without its list of rivals: the first seat clockwise after the turn
            # (the turn itself last) that has not passed and does not lead; it stays if none
            count = len(among)
            start = among.index(turn)
            for step in range(1, count + 1):
                other = among[(start + step) % count]
                if other != leader and other not in passed:
                    turn = other
                    break
        else:
            rivals = [other for other in among if other not in passed and other != leader]
            if rivals:
                turn = after(among, turn, rivals)
        if amount is None:
            return evolve(self, passed=passed, turn=turn)
        return evolve(self, leader=leader, price=amount, turn=turn)
