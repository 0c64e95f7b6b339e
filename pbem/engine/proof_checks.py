"""Hidden-deck proofs checked on every core once a game file is replayed.

A proof check is pure, and the replay never reads its result: the check only raises when the
proof is bad. So the replay goes on without them, and once it is over they are run in a few
threads: in the curve group their arithmetic runs in libsodium, which lets go of the interpreter
while it works, so the threads check side by side. (The older 2048-bit group's arithmetic holds
the interpreter: its files gain nothing.) They wait for the end of the replay because a thread
gets the interpreter back after each libsodium call only when the replay's thread gives it up,
every few milliseconds: checks run beside the pure-Python replay get little done and slow it.

The answer must be the one checking each proof in its place gives, to the letter:

- the given ``ProofCheck`` still decides which checks run (a pass it knows is skipped), and
  hears of each pass on the replay's own thread, in the replay's order, once every check of the
  replay has passed: it never records a pass that was not seen;
- if any check fails (or raises anything else), what the replay concluded after it is
  worthless: the replay is made again with every check in its place, the passes already seen
  not run twice. That second replay is the answer, so the problems, their entries, their order
  and any exception are those of checking in place.

A file with a bad proof costs one replay more (without the proofs seen to pass); a sound one is
replayed once.

Checks of one batch (``decks.BatchedCheck``: the shuffles of a deck) run as one
task, which costs less than each on its own, and first, since such a task is the longest; each
check keeps its own key, and a failure of the batch is a failure of each of its checks.
"""

from __future__ import annotations

import contextlib
import os
import types
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from functools import partial
from typing import TypeVar

from pbem.engine.decks import BatchedCheck, ProofCheck

T = TypeVar("T")

# How many threads check proofs: a number, or 1 to check each proof in its place.
WORKERS_VARIABLE = "PBEM_PROOF_WORKERS"
# Past a few threads, the checks wait on each other for the interpreter between libsodium calls.
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
    pending = _Pending(check, pool, count)
    try:
        try:
            result = replay(pending)
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


class _Pending:
    """The ``ProofCheck`` the replay is given: it keeps the checks ``check`` wants run, to run them
    once the replay is over."""

    def __init__(self, check: ProofCheck, pool: ThreadPoolExecutor, workers: int) -> None:
        self.check = check
        self.pool = pool
        self.workers = workers
        # key -> the future of its outcome, in the order the replay met them (a key already here
        # is not run twice: the same inputs give the same outcome)
        self.futures: dict[str, Future[None]] = {}
        self.batches: dict[str, list[tuple[Future[None], BatchedCheck]]] = {}
        self.singles: list[tuple[Future[None], Callable[[], None]]] = []

    def __call__(self, key: str, run: Callable[[], None]) -> None:
        if key in self.futures:
            return
        with contextlib.suppress(_Wanted):
            self.check(key, lambda: self._keep(key, run))

    def _keep(self, key: str, run: Callable[[], None]) -> None:
        future: Future[None] = Future()
        if isinstance(run, BatchedCheck):
            self.batches.setdefault(run.batch, []).append((future, run))
        else:
            self.singles.append((future, _detached(run)))
        self.futures[key] = future
        raise _Wanted

    def all_passed(self) -> bool:
        """Run every check kept, the batches first, and wait for them all: True if all passed."""
        for held in self.batches.values():
            checks = [check for _, check in held]
            self._run(partial(type(checks[0]).together, checks, self.workers), [f for f, _ in held])
        for future, run in self.singles:
            self._run(run, [future])
        self.batches, self.singles = {}, []
        wait_for(list(self.futures.values()))
        return all(_passes(future) for future in self.futures.values())

    def _run(self, work: Callable[[], None], futures: list[Future[None]]) -> None:
        """``work`` in the pool; each of ``futures`` takes its outcome."""

        def settle(done: Future[None]) -> None:
            for future in futures:
                if done.cancelled():
                    future.cancel()
                elif done.exception() is not None:
                    future.set_exception(done.exception())
                else:
                    future.set_result(None)

        self.pool.submit(work).add_done_callback(settle)

    def record(self) -> None:
        """Tell ``check`` of each pass, in the order met, as if each had just been run in place."""
        for key in self.futures:
            self.check(key, _passed)

    def in_place(self) -> ProofCheck:
        """``check`` itself, but with the runs seen to pass not made again."""
        passed = {key for key, future in self.futures.items() if _passes(future)}
        check = self.check

        def again(key: str, run: Callable[[], None]) -> None:
            check(key, _passed if key in passed else run)

        return again


def _passes(future: Future[None]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None


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
