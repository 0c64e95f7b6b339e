"""Hidden-deck proofs checked on every core while a game file is replayed.

A proof check is pure, and the replay never reads its result: the check only raises when the
proof is bad. In the curve group its arithmetic runs in libsodium, which lets go of the
interpreter while it works, so the checks can run in a few threads while the replay goes on with
the rules. (The older 2048-bit group's arithmetic holds the interpreter: its files gain nothing.)

The answer must be the one checking each proof in its place gives, to the letter:

- the given ``ProofCheck`` still decides which checks run (a pass it knows is skipped), and
  hears of each pass on the replay's own thread, in the replay's order, once every check of the
  replay has passed: it never records a pass that was not seen;
- once any check fails (or raises anything else), what the replay concluded after it is
  worthless: the replay is abandoned and made again with every check in its place, the passes
  already seen not run twice. That second replay is the answer, so the problems, their entries,
  their order and any exception are those of checking in place.

A file with a bad proof costs one replay more (without the proofs seen to pass); a sound one is
replayed once.

Checks of one batch (``decks.BatchedCheck``: the shuffles of a deck in seat order) are held until
the last of them is met, or the replay ends, and run as one task, which costs less than each on
its own; each keeps its own key, and a failure of the batch is a failure of each of its checks.
"""

from __future__ import annotations

import contextlib
import os
import threading
import types
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from typing import TypeVar

from pbem.engine.decks import BatchedCheck, ProofCheck

T = TypeVar("T")

# How many threads check proofs: a number, or 1 to check each proof in its place.
WORKERS_VARIABLE = "PBEM_PROOF_WORKERS"
# Past a few threads the replay itself, on one core, is what everyone waits for.
MOST_WORKERS = 4


def default_workers() -> int:
    """``PBEM_PROOF_WORKERS`` if set, else one thread per core this process may use, up to four."""
    given = os.environ.get(WORKERS_VARIABLE, "").strip()
    if given.isdigit():
        return max(1, int(given))
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cores = os.cpu_count() or 1
    return min(cores, MOST_WORKERS)


def replayed(check: ProofCheck, replay: Callable[[ProofCheck], T], *, workers: int | None = None) -> T:
    """``replay(proofs)``, where ``proofs`` checks in ``workers`` threads what ``check`` would
    check in place, with exactly the outcome of ``replay(check)``.

    ``replay`` must start from scratch each time it is called: it is called again when a check
    fails. No thread is left running when this returns or raises.
    """
    count = default_workers() if workers is None else workers
    # within a replay already checking in threads, its checks are already spread, and its failures
    # already make it again in place
    if count <= 1 or isinstance(check, _Pending):
        return replay(check)
    pool = ThreadPoolExecutor(max_workers=count, thread_name_prefix="pbem-proofs")
    pending = _Pending(check, pool)
    try:
        try:
            result = replay(pending)
        except _Failed:
            pass
        except Exception:
            # met with every check before it passing, so checking in place meets it too
            if pending.all_passed():
                pending.record()
                raise
        else:
            if pending.all_passed():
                pending.record()
                return result
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return replay(pending.in_place())


class _Wanted(BaseException):
    """``check`` asked for the run, and the run is now pending. A BaseException, so that nothing
    between it and here could take it for a proof's failure."""


class _Failed(BaseException):
    """A pending check failed: the replay stops, since what it concludes from then on is worthless."""


class _Pending:
    """The ``ProofCheck`` the replay is given: it submits the checks ``check`` wants run."""

    def __init__(self, check: ProofCheck, pool: ThreadPoolExecutor) -> None:
        self.check = check
        self.pool = pool
        # key -> its run, in the order the replay met them (a key already here is not run twice:
        # the same inputs give the same outcome)
        self.futures: dict[str, Future[None]] = {}
        # set from a worker thread, read by the replay's
        self.failed = threading.Event()
        # batch -> its checks met so far, each with the future that stands for its outcome
        self.held: dict[str, list[tuple[Future[None], BatchedCheck]]] = {}

    def __call__(self, key: str, run: Callable[[], None]) -> None:
        if self.failed.is_set():
            raise _Failed
        if key in self.futures:
            return
        with contextlib.suppress(_Wanted):
            self.check(key, lambda: self._submit(key, run))

    def _submit(self, key: str, run: Callable[[], None]) -> None:
        if isinstance(run, BatchedCheck):
            future: Future[None] = Future()
            self.held.setdefault(run.batch, []).append((future, run))
            if run.last:
                self._release(run.batch)
        else:
            future = self.pool.submit(_detached(run))
        future.add_done_callback(self._note)
        self.futures[key] = future
        raise _Wanted

    def _release(self, batch: str) -> None:
        """Run the held checks of ``batch`` as one task; each one's future takes its outcome."""
        held = self.held.pop(batch)
        checks = [check for _, check in held]
        task = self.pool.submit(type(checks[0]).together, checks)

        def settle(done: Future[None]) -> None:
            for future, _ in held:
                if done.cancelled():
                    future.cancel()
                elif done.exception() is not None:
                    future.set_exception(done.exception())
                else:
                    future.set_result(None)

        task.add_done_callback(settle)

    def _note(self, future: Future[None]) -> None:
        if not future.cancelled() and future.exception() is not None:
            self.failed.set()

    def all_passed(self) -> bool:
        for batch in list(self.held):
            self._release(batch)
        wait_for(list(self.futures.values()))
        return not self.failed.is_set()

    def record(self) -> None:
        """Tell ``check`` of each pass, in the order met, as if each had just been run in place."""
        for key in self.futures:
            self.check(key, _passed)

    def in_place(self) -> ProofCheck:
        """``check`` itself, but with the runs seen to pass not made again."""
        passed = {
            key
            for key, future in self.futures.items()
            if future.done() and not future.cancelled() and future.exception() is None
        }
        check = self.check

        def again(key: str, run: Callable[[], None]) -> None:
            check(key, _passed if key in passed else run)

        return again


def _passed() -> None:
    pass


def _detached(run: Callable[[], None]) -> Callable[[], None]:
    """``run`` with every list it closes over copied, as the list stands now.

    In place, a check sees its inputs at once; here it may run after the replay has gone on and
    changed a list in place (a deck's slots are the last shuffle's cards, and a card returned to
    the deck takes a new ciphertext in them): the check must see what the entry gave it.
    """
    cells: tuple[types.CellType, ...] | None = getattr(run, "__closure__", None)
    code = getattr(run, "__code__", None)
    if not cells or not isinstance(run, types.FunctionType) or code is None:
        return run
    copied = []
    for cell in cells:
        try:
            value = cell.cell_contents
        except ValueError:  # not yet bound
            copied.append(cell)
            continue
        copied.append(types.CellType(list(value)) if isinstance(value, list) else cell)
    detached = types.FunctionType(code, run.__globals__, run.__name__, run.__defaults__, tuple(copied))
    detached.__kwdefaults__ = run.__kwdefaults__
    return detached
