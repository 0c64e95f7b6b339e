"""Princes of Florence through the signed ledger: whole games played as pbem plays them (every move
signed and replayed by the engine, the three hidden decks shuffled by every seat, cards drawn,
shown and put back under their decks with proofs), then the file read back from its bytes and
audited with every proof checked, its final score compared with one counted from the rules text,
and searched for every card that never went face up.

Each seat picks among the moves ``pbem moves --as SEAT`` would list (its own hidden cards read with
its own key) with a seeded generator, so every run plays the same games. A game takes a few
seconds, its audit a few more; each is built once, in a class of its own so they run side by side.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from pbem import gamefile
from pbem.crypto.identity import SecretKeys
from pbem.engine import ledger, play
from pbem.engine import table as tables
from pbem.engine.ledger import Ledger
from pbem.engine.ruleset import DECK_DEMANDS
from pbem.errors import GameFileError, IllegalMoveError
from pbem.games.princes_of_florence import rounds
from pbem.games.princes_of_florence.rules import RULES
from pbem.games.princes_of_florence.state import Game
from tests.conftest import Cli, seeded_keys
from tests.games.princes_of_florence.support import COMPONENTS
from tests.games.princes_of_florence.test_rules_playouts import Books, final_score
from tests.hidden_deck_game import element_forms

GAME = "princes-of-florence"
START = datetime(2026, 5, 4, 18, 0, tzinfo=UTC)
DECKS = ("profession", "bonus", "prestige")
SELL_CHANCE = 0.03  # now and then a player sells prestige for florins, unasked (a free move)
# The moves a player tries first: those that draw, show and put back hidden cards, and end a game
# with works and prestige cards to count.
EAGER = {"work": 0, "reveal": 0, "recruit": 0, "take": 1, "build": 1, "keep": 1, "auction": 1, "buy": 1}


def every_proof(key: str, run: Callable[[], None]) -> None:
    """A proof check that remembers nothing: each proof in the file is checked again."""
    run()


class Clock:
    def __init__(self) -> None:
        self.now = START

    def tick(self) -> str:
        self.now += timedelta(minutes=11)
        return self.now.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Played:
    """A finished game: the ledger as its players built it, its file, and each seat's key."""

    game: Ledger
    text: str
    keys: dict[str, SecretKeys]
    kinds: Counter[str]  # entries by kind and move verb, and the hidden-deck fields they carry

    @property
    def state(self) -> Game:
        assert self.game.table is not None
        state: Game = self.game.table.state
        return state


def choose(rnd: random.Random, moves: Sequence[str]) -> list[str]:
    """The moves in the order a player tries them: mostly the eager ones first, passing last."""
    order = list(moves)
    rnd.shuffle(order)
    if rnd.random() < 0.85:
        order.sort(key=lambda text: EAGER.get(text.split()[0], 3 if text != "pass" else 4))
    return order


def play_game(seats: Sequence[str], *, seed: int, unofficial: bool = False) -> Played:
    """Princes of Florence for ``seats``, from ``pbem new`` to the last prestige card turned up."""
    keys = {seat: seeded_keys(seat) for seat in seats}
    rnd = random.Random(seed)
    clock = Clock()
    options = {"escrow": "none"} | ({"unofficial_rules": "true"} if unofficial else {})
    setup = ledger.plan(game=GAME, edition=None, options=options, seats=list(seats), creator=seats[0])
    game = ledger.new_game(
        setup, keys[seats[0]], at=clock.tick(), nonce=f"{seed:032x}", components=COMPONENTS
    )
    for seat in seats[1:]:
        game, _ = ledger.join(game, seat, keys[seat], clock.tick())
    kinds: Counter[str] = Counter()
    for _ in range(3000):
        assert game.table is not None and game.rules is not None
        demands = tables.demands(game.rules, game.table)
        if not demands:
            break
        # Any seat asked may send the next entry: the players take turns in no fixed order.
        seat = rnd.choice(sorted({demand.seat for demand in demands}))
        asked = [demand for demand in demands if demand.seat == seat]
        if all(demand.kind in DECK_DEMANDS for demand in asked):
            game, entry = play.sync(game, seat, keys[seat], clock.tick())
        else:
            game, entry = move(game, seat, keys[seat], clock, rnd)
        kinds[entry["kind"]] += 1
        if entry["kind"] == "move":
            kinds[entry["move"].split()[0]] += 1
        kinds.update(field for field in ("shuffles", "shares", "face_up", "remask") if field in entry)
    else:
        pytest.fail("the game did not end in 3000 entries")
    text = gamefile.render_new(
        game.header(), game.roster_table(), COMPONENTS, game.entries, game.status_lines()
    )
    return Played(game, text, keys, kinds)


def move(
    game: Ledger, seat: str, secret: SecretKeys, clock: Clock, rnd: random.Random
) -> tuple[Ledger, dict[str, Any]]:
    """A legal move by ``seat``, as its player would choose one from ``pbem moves``: every move
    listed is accepted (a work below the round's minimum is not listed once the seat's cards are
    read), so the first the player tries is made."""
    free = play.free_moves(game, seat)
    if free and rnd.random() < SELL_CHANCE:
        return play.play(game, seat, rnd.choice(free), secret, clock.tick())
    _, moves = play.legal(game, seat, play.hidden_hand(game, seat, secret))
    assert moves, (seat, RULES.phase(game.table.state) if game.table else None)
    return play.play(game, seat, choose(rnd, moves)[0], secret, clock.tick())


def books(state: Game, entries: Sequence[Mapping[str, Any]]) -> Books:
    """What the test's own count needs that the estates do not show: the prestige taken for works,
    the rounds' best works and the prestige sold, read from the entries and the works."""
    counted = Books({seat: state.player(seat).florins for seat in state.seats})
    for player in state.players:
        counted.works_prestige[player.seat] = sum(work.prestige for work in player.works)
    for _, makers in state.best:
        counted.best.update(makers)
    for entry in entries:
        if entry["kind"] == "move" and entry["move"].startswith("sell prestige "):
            counted.sold[entry["by"]] += int(entry["move"].split()[-1])
    return counted


# --- what never goes face up ----------------------------------------------------------------------


def outside_components(text: str) -> str:
    """The file without the genesis's component data, which lists every card of the template."""
    start, end = text.index("[components."), text.index("[[entry]]")
    return text[:start] + text[end:]


def shown_in_entries(data: dict[str, Any]) -> set[tuple[str, str]]:
    """The cards a move showed: named in the entry, with the share that proves it."""
    return {
        (item["deck"], card)
        for entry in data["entry"]
        for item in entry.get("face_up", [])
        for card in item["cards"]
    }


def shown_cards(game: Ledger) -> set[tuple[str, str]]:
    """Every card that went face up: shown by a move, or dealt face up for everyone (opened by the
    shares alone, so the file need not name it)."""
    assert game.table is not None and game.table.decks is not None
    decks = game.table.decks.decks.values()
    return {(deck.deck_id, card) for deck in decks for card in deck.face_up.values()}


def encodings(deck: str, index: int) -> list[str]:
    """Every way the file could carry the card at ``index`` of ``deck`` in clear: its id, its name
    and its group element (``encode_card``) as base64, hex and decimal."""
    card = COMPONENTS[deck][index]
    forms = [card["id"], *element_forms(index)]
    return forms + ([card["name"]] if card.get("name") else [])


def occurs(text: str, needle: str) -> bool:
    """Found as a word: base64 text (letters, digits, + and /) never hides a match by chance, and
    ``forest`` (a landscape) is not ``forests`` (a bonus card)."""
    return re.search(rf"(?<![A-Za-z0-9+/=_-]){re.escape(needle)}(?![A-Za-z0-9+/=_-])", text) is not None


def face_down(game: Ledger) -> Iterator[tuple[str, int]]:
    shown = shown_cards(game)
    for deck in DECKS:
        for index, card in enumerate(COMPONENTS[deck]):
            if (deck, card["id"]) not in shown:
                yield deck, index


# --- the checks every game gets -------------------------------------------------------------------


class Checks:
    played: Played

    def test_the_game_is_played_to_the_end(self) -> None:
        state = self.played.state
        assert state.phase == "over" and state.round == 7 and len(state.best) == 7
        assert not self.played.game.table or not tables.demands(RULES, self.played.game.table)

    def test_the_file_audits_with_every_proof_checked_to_the_same_score(self) -> None:
        data = tomllib.loads(self.played.text)
        result = ledger.audit(data, every_proof)
        assert result.ok, [str(problem) for problem in result.problems[:3]]
        assert result.ledger is not None and result.ledger.table is not None
        replayed: Game = result.ledger.table.state
        assert replayed == self.played.state
        score = RULES.score(replayed)
        counted = final_score(replayed, books(replayed, data["entry"]))
        assert {seat: row["total"] for seat, row in score.items()} == counted
        assert {seat: row["florins"] for seat, row in score.items()} == {
            player.seat: player.florins for player in replayed.players
        }

    def test_no_card_that_stayed_face_down_is_in_the_file(self) -> None:
        data = tomllib.loads(self.played.text)
        text = outside_components(self.played.text)
        assert shown_in_entries(data) <= shown_cards(self.played.game)
        hidden = list(face_down(self.played.game))
        assert hidden, "some card is still face down at the end"
        for deck, index in hidden:
            for form in encodings(deck, index):
                assert not occurs(text, form), (deck, COMPONENTS[deck][index]["id"], form[:40])
        # and the search finds what is in the file: every card shown is named there
        for deck, card in shown_in_entries(data):
            assert occurs(text, card), (deck, card)

    def test_only_the_holder_reads_a_hidden_card(self) -> None:
        game, keys = self.played.game, self.played.keys
        for seat in game.seats:
            hand = play.hidden_hand(game, seat, keys[seat])
            assert all(card is not None for card in hand.values())
            other = next(name for name in game.seats if name != seat)
            if hand:  # another seat's key opens none of them
                with pytest.raises(GameFileError, match="not one of the deck's"):
                    play.hidden_hand(game, seat, keys[other])

    def test_show_prints_a_seat_its_own_tokens_and_the_final_score(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        from pbem.games.princes_of_florence.terminal import render

        state = self.played.state
        for seat in state.seats:
            render("Princes of Florence", RULES.view(state, seat), {})
            shown = capsys.readouterr().out
            tokens = set(re.findall(r"[a-z]+:\d+", shown))
            for other in state.players:
                held = {*other.hand, *other.bonus, *rounds.hidden_prestige(state, other)} - set(state.shown)
                assert (held <= tokens) if other.seat == seat else not (held & tokens), (seat, other.seat)
            assert "final score" in shown and "winner: " in shown
            for name, row in RULES.score(state).items():
                assert re.search(rf"total\b.*\b{row['total']}\b", shown, re.S), (name, row["total"])

    def test_every_deck_is_shuffled_by_every_seat_in_seat_order(self) -> None:
        entries = tomllib.loads(self.played.text)["entry"]
        seats = list(self.played.game.seats)
        for deck in DECKS:
            shufflers = [e["by"] for e in entries for item in e.get("shuffles", []) if item["deck"] == deck]
            # the profession deck once more after the deal ("Колода вновь перемешивается")
            assert shufflers == seats * (2 if deck == "profession" else 1), deck


class TestThreePlayers(Checks):
    @pytest.fixture(autouse=True, scope="class")
    @classmethod
    def _played(cls) -> None:
        cls.played = play_game(("ann", "ben", "cat"), seed=8)

    def test_the_game_draws_keeps_shows_and_reveals_cards(self) -> None:
        kinds = self.played.kinds
        for kind in ("work", "keep", "take", "reveal", "remask", "face_up", "shares", "sell"):
            assert kinds[kind] > 0, (kind, kinds)


class TestTwoPlayersUnofficial(Checks):
    """The unofficial rules for two: profession cards turned face up for everyone from round 3
    (the engine's face-up draws), and taken by name."""

    @pytest.fixture(autouse=True, scope="class")
    @classmethod
    def _played(cls) -> None:
        cls.played = play_game(("ann", "ben"), seed=3, unofficial=True)

    def test_professions_are_turned_up_for_everyone(self) -> None:
        entries = tomllib.loads(self.played.text)["entry"]
        assert self.played.state.face_up or self.played.state.professions_taken
        assert any(
            entry["kind"] == "move" and entry["move"].startswith("take profession ") for entry in entries
        )


# --- missed deadlines -----------------------------------------------------------------------------


def dealt(seats: Sequence[str]) -> tuple[Ledger, dict[str, SecretKeys], Clock]:
    """A game with a one-day deadline, every deck shuffled and the four professions dealt."""
    keys = {seat: seeded_keys(seat) for seat in seats}
    clock = Clock()
    options = {"deadline_days": "1", "escrow": "none"}
    setup = ledger.plan(game=GAME, edition=None, options=options, seats=list(seats), creator=seats[0])
    game = ledger.new_game(setup, keys[seats[0]], at=clock.tick(), nonce="de" * 16, components=COMPONENTS)
    for seat in seats[1:]:
        game, _ = ledger.join(game, seat, keys[seat], clock.tick())
    for seat in seats:
        game, _ = play.sync(game, seat, keys[seat], clock.tick())
    assert game.table is not None and game.table.state.phase == "deal"
    return game, keys, clock


def later(clock: Clock) -> str:
    clock.now += timedelta(days=2)
    return clock.tick()


def test_a_late_players_dealt_card_goes_back_under_the_deck_re_masked_by_the_claimant() -> None:
    """The deal's default returns the card dealt last under the deck. Re-masking a card takes no
    secret (a fresh encryption of the same card under the joint key), so the claimant makes it and
    its timeout carries the card with its proof: the engine and the rules both put the card back,
    and the game goes on without the late player's key (and without escrow)."""
    seats = ("ann", "ben", "cat")
    game, keys, clock = dealt(seats)
    for seat in seats:  # each gives its shares of the others' cards: none waits to read its own
        game, _ = play.sync(game, seat, keys[seat], clock.tick())
    assert game.table is not None and game.table.decks is not None
    late_card = game.table.state.player("ben").hand[-1]
    deck_id, _, slot = late_card.partition(":")
    before = game.table.decks.decks[deck_id].slots[int(slot)]
    game, claim = play.timeout(game, "ann", "ben", keys["ann"], later(clock))
    assert [(item["deck"], item["slot"]) for item in claim["remask"]] == [(deck_id, int(slot))]
    assert game.table is not None and game.table.decks is not None
    deck = game.table.decks.decks[deck_id]
    assert int(slot) not in deck.held and deck.pile[-1] == int(slot) and deck.slots[int(slot)] != before
    assert late_card not in game.table.state.player("ben").hand
    # Once the cards are back, a late player's pass needs no key either.
    for seat in ("ann", "cat"):
        state = game.table.state
        game, _ = play.play(game, seat, f"return {state.player(seat).hand[-1]}", keys[seat], clock.tick())
    game, _ = play.timeout(game, "ben", "ann", keys["ben"], later(clock))
    assert game.table is not None and game.table.state.player("ann").out
    assert ledger.audit(game.data(), every_proof).ok


# --- one work with each profession card ---------------------------------------------------------


@dataclass(frozen=True)
class RecruitedBack:
    """ben made a work with a card, cat recruited it and made one with it too, and ben recruited
    it back: it is ben's turn in the action phase of round 3, the card in his hand."""

    game: Ledger
    keys: dict[str, SecretKeys]
    clock: Clock
    token: str
    name: str


def recruited_back() -> RecruitedBack:
    seats = ("ann", "ben", "cat")
    game, keys, clock = dealt(seats)
    likes = {card["id"]: card["building"] for card in COMPONENTS["profession"]}

    def act(game: Ledger, seat: str, text: str) -> Ledger:
        for other in seats:  # what anyone owes the hidden decks goes first, alone
            if play.owes_decks(game, other):
                game, _ = play.sync(game, other, keys[other], clock.tick())
        game, _ = play.play(game, seat, text, keys[seat], clock.tick())
        return game

    def builds_and_works(game: Ledger, seat: str, token: str, name: str) -> Ledger:
        """The building the profession likes (4 WP), then the work, taken in florins."""
        _, moves = play.legal(game, seat, play.hidden_hand(game, seat, keys[seat]))
        game = act(game, seat, next(text for text in moves if text.startswith(f"build {likes[name]} ")))
        game = act(game, seat, f"work {token}")
        return act(game, seat, "prestige 0")

    for seat in seats:
        assert game.table is not None
        game = act(game, seat, f"return {game.table.state.player(seat).hand[-1]}")
    hand = play.hidden_hand(game, "ben", keys["ben"])
    token, name = min((t, card) for t, card in hand.items() if card and t.startswith("profession:"))
    # Round 1: ben wins a jester; his work is worth 4 + 2 + 3 cards = 9 (the minimum is 7).
    for seat, text in (("ann", "pass"), ("ben", "auction jester"), ("cat", "pass"), ("cat", "pass")):
        game = act(game, seat, text)
    game = act(game, "ann", "pass")
    game = builds_and_works(game, "ben", token, name)
    game = act(game, "cat", "pass")
    # Round 2 (ben first): ben wins another jester; cat wins a recruitment card and takes the card
    # from ben at once, then works it: 4 + 5 cards (three in hand, it and the recruitment card laid
    # out) = 9, the minimum.
    for seat, text in (("ben", "auction jester"), ("cat", "pass"), ("ann", "pass")):
        game = act(game, seat, text)
    for seat, text in (("cat", "auction recruitment"), ("ann", "pass")):
        game = act(game, seat, text)
    game = act(game, "cat", f"recruit {name} from ben")
    for seat in ("ann", "ben"):
        game = act(game, seat, "pass")
    game = builds_and_works(game, "cat", token, name)
    game = act(game, "ann", "pass")
    # Round 3 (cat first): ben, the last player without a lot, buys a recruitment card and takes
    # the card back. A work with it would be worth 4 + 4 + 4 cards = 12, above the minimum of 11.
    for seat, text in (("cat", "pass"), ("ann", "pass"), ("ben", "buy recruitment")):
        game = act(game, seat, text)
    game = act(game, "ben", f"recruit {name} from cat")
    for seat in ("cat", "ann"):
        game = act(game, seat, "pass")
    assert game.table is not None and game.table.state.turn == "ben"
    assert token in game.table.state.player("ben").hand
    return RecruitedBack(game, keys, clock, token, name)


class TestAPlayerWorksEachProfessionOnce:
    """Seed 001, "Создание шедевра": the card "остается лежать открытой на столе и данный игрок не
    может вновь создать шедевр с помощью данного артиста или ученого. Однако другой игрок может с
    помощью карты найма переманить открытого артиста или ученого и создать с помощью его шедевр"."""

    case: RecruitedBack
    RULE = "ben has already made a work with the {name}, and a player makes only one work with each"

    @pytest.fixture(autouse=True, scope="class")
    @classmethod
    def _made(cls) -> None:
        cls.case = recruited_back()

    def test_another_player_worked_the_card(self) -> None:
        assert self.case.game.table is not None
        state = self.case.game.table.state
        assert [work.profession for work in state.player("cat").works] == [self.case.name]
        assert [work.profession for work in state.player("ben").works] == [self.case.name]

    def test_moves_does_not_offer_the_work_and_play_refuses_it_in_one_line(self) -> None:
        case = self.case
        _, moves = play.legal(case.game, "ben", play.hidden_hand(case.game, "ben", case.keys["ben"]))
        assert moves and not [text for text in moves if text.startswith(f"work {case.token}")]
        before = case.game.data()
        with pytest.raises(IllegalMoveError) as caught:
            play.play(case.game, "ben", f"work {case.token}", case.keys["ben"], case.clock.tick())
        message = str(caught.value)
        assert message.startswith(self.RULE.format(name=case.name)) and "\n" not in message
        assert case.game.data() == before

    def test_the_command_line_refuses_it_and_leaves_the_file_alone(self, cli: Cli) -> None:
        case = self.case
        path = cli.cwd / "game.toml"
        path.write_text(
            gamefile.render_new(
                case.game.header(), case.game.roster_table(), COMPONENTS, case.game.entries, []
            ),
            encoding="utf-8",
        )
        before = path.read_bytes()
        done = cli("play", str(path), "work", case.token, "--as", "ben")
        assert done.exit_code == 1
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: " + self.RULE.format(name=case.name))
        assert path.read_bytes() == before

    def test_a_file_made_before_the_rule_no_longer_verifies(self, monkeypatch: pytest.MonkeyPatch) -> None:
        case = self.case
        monkeypatch.setattr(rounds, "repeat_refusal", lambda *_: None)
        made, entry = play.play(case.game, "ben", f"work {case.token}", case.keys["ben"], case.clock.tick())
        monkeypatch.undo()
        result = ledger.audit(made.data(), lambda key, run: None)
        assert not result.ok
        assert str(result.problems[0]).startswith(
            f"entry {entry['seq']} (by ben): refused by the rules: " + self.RULE.format(name=case.name)
        )
