"""Il Principe in companion mode: the rounds, the auctions, building cities, the refusals, the end
of the game and a short game replayed to its totals.

Rules text: seed 002 (/work/shared/seeds/002_70b0a4816bae13f8.txt), two French translations
("Tour de jeu" / "Déroulement de la partie", "Construire une cité", "Fin du jeu", "Règles
spéciales pour 2 joueurs", "Variante"). Expected numbers are the text's, quoted next to them.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest

from pbem.errors import IllegalMoveError, MoveSyntaxError, PbemError, UsageError
from pbem.games.il_principe.table.state import Table
from pbem.games.il_principe.table.tracker import TRACKER

THREE = ("ann", "ben", "cat")


def start(players: Sequence[str] = THREE, *, rich_start: bool = False, components: object = None) -> Table:
    return TRACKER.start(players, "standard", {"rich_start": rich_start, "deadline_days": 0}, components)  # type: ignore[arg-type]


def play(state: Table, *actions: str) -> Table:
    for action in actions:
        state, _ = TRACKER.apply(state, action)
    return state


def empty_round(state: Table) -> Table:
    """A round where nothing happens but the income and the roles."""
    return play(state, "round income", "round roles", "round ends")


# --- setup and income ------------------------------------------------------------------------------
def test_start_and_income() -> None:
    state = start()
    # « 5 ducats comme capital de départ »; the pile of « 100 cartes Bâtiment »
    assert [seat.ducats for seat in state.seats.values()] == [5, 5, 5]
    assert state.deck == 100
    assert state.principe == "ann"
    assert TRACKER.income_action(state) == "round income"
    state = play(state, "round income")
    # Phase 1: « Reçoit 5 pièces de monnaie ... Pioche 4 cartes édifices »
    assert [(seat.ducats, seat.hand_size) for seat in state.seats.values()] == [(10, 4)] * 3
    assert state.deck == 88
    assert TRACKER.income_action(state) is None
    with pytest.raises(IllegalMoveError, match="already recorded"):
        TRACKER.apply(state, "round income")


def test_variant_rich_start() -> None:
    # « chaque joueur reçoit 10 ducats comme capital de départ. A chaque tour, les joueurs prennent
    # 6 ducats. Vous pouvez également construire une cité lors de la première manche. »
    state = play(start(rich_start=True), "round income")
    assert state.seats["ann"].ducats == 16
    state = play(state, "ann hand +2 blue", "ann builds milano shields blue green")
    assert state.seats["ann"].vp == 6


def test_two_players() -> None:
    # « 7 bâtiments de chaque couleur » removed: 65 cards; « chaque joueur tire 5 cartes Bâtiment
    # et pose 3 cartes pour les enchères. Chaque joueur gagne 6 pièces de monnaie. »
    state = play(start(("ann", "ben")), "round income")
    assert state.deck == 65 - 10
    assert [(seat.ducats, seat.hand_size) for seat in state.seats.values()] == [(11, 5)] * 2
    state = play(state, "ann reserves green green red")
    with pytest.raises(IllegalMoveError, match="3 cards in the reserve"):
        TRACKER.apply(state, "ann reserves blue")


# --- phase 2 ---------------------------------------------------------------------------------------
def test_auction_order_fewest_first_then_colour_order() -> None:
    # « dans un jeu à 4 joueurs ... 3 vertes, 2 blanches, 2 rouges et une jaune. L'ordre ... est le
    # suivant : jaune, blanc, rouge et vert »
    state = play(
        start(("ann", "ben", "cat", "dan")),
        "round income",
        "ann reserves green green",
        "ben reserves green white",
        "cat reserves white red",
        "dan reserves red yellow",
    )
    (report,) = TRACKER.query(state, "auction")
    assert [row[0] for row in report.rows] == ["yellow", "white", "red", "green"]
    with pytest.raises(IllegalMoveError, match="the yellow group is auctioned first"):
        TRACKER.apply(state, "ben wins white for 1")
    state = play(state, "ben wins yellow for 2", "nobody wins white")
    # The winner « Remporte le groupe de cartes, Paie l'enchère ..., Prend le pion « Il Principe » »
    assert (state.seats["ben"].ducats, state.seats["ben"].hand["yellow"], state.principe) == (8, 1, "ben")
    # « Si tout le monde passe ..., le groupe de cartes est retiré du jeu. »
    assert state.discards == 2
    with pytest.raises(IllegalMoveError, match="reserve is closed"):
        TRACKER.apply(state, "ann reserves blue")


# --- building --------------------------------------------------------------------------------------
def test_lucca_example_role_holders_score_once_per_colour() -> None:
    # « Barbara construit Lucca : 2 Cathédrales (blanc), 1 château (bleu) et un Hôtel de Ville
    # (rouge). Andrea qui possède l'évêque ... gagne 2 PVs. Tom qui possède le prêtre ... et le
    # noble ... gagne 1 PV pour le blanc et 2 PVs pour le bleu. Barbara ramasse seulement les PVs
    # indiqués sur la carte Lucca. »
    state = play(
        empty_round(start(("barbara", "andrea", "tom"))),
        "round income",
        "andrea holds bishop",
        "tom holds priest",
        "tom holds noble",
        "barbara holds red major",  # the builder scores nothing for her own roles
        "barbara builds lucca shields red yellow",
    )
    assert {name: seat.vp for name, seat in state.seats.items()} == {"barbara": 6, "andrea": 2, "tom": 3}
    barbara = state.seats["barbara"]
    # Medium city: « Les moyennes [coûtent] 4 »; 4 cards from the hand; 2 shields.
    # Two rounds' income: 5 + 5 + 5 ducats and 8 cards, less Lucca's 4 ducats and 4 cards.
    assert (barbara.ducats, barbara.hand_size, barbara.shields_placed) == (11, 4, 2)
    assert barbara.up == {"green": 0, "white": 2, "red": 1, "blue": 1, "yellow": 0}


def test_firenze_example_cost_cards_shields_and_eight_vp() -> None:
    # « Marcel ... veut construire Firenze. Il doit payer 5 pièces et jouer ... 2 Universités, 1
    # Hôtel de Ville, 1 château et une place de marché. ... Il peut placer 2 boucliers ... (les
    # régions marron, violette et verte). » The example says « Il gagne 6 PVs »; pbem follows « 8
    # PVs pour une grosse cité » (docs/rules/il-principe.md).
    state = play(empty_round(start()), "round income", "ann hand -8", "ann hand +2 green", "ann hand +3")
    with pytest.raises(IllegalMoveError, match="regions touching firenze: brown, green, purple"):
        TRACKER.apply(state, "ann builds firenze shields red green")
    state = play(state, "ann builds firenze shields purple purple")
    ann = state.seats["ann"]
    assert (ann.ducats, ann.vp, ann.hand_size, ann.shields) == (10, 8, 0, {"purple": 2})
    assert ann.up == {"green": 2, "white": 0, "red": 1, "blue": 1, "yellow": 1}
    (report,) = TRACKER.query(state, "city firenze")
    assert "already built by ann" in report.notes


def test_firenze_vp_can_follow_the_example_through_components() -> None:
    state = play(
        empty_round(start(components={"vp": {"firenze": 6}})),
        "round income",
        "ann builds firenze shields green green",
    )
    assert state.seats["ann"].vp == 6


def test_city_without_icons_in_the_texts_takes_them_from_the_action() -> None:
    state = play(empty_round(start()), "round income")
    with pytest.raises(MoveSyntaxError, match="do not give siena's icons"):
        TRACKER.apply(state, "ann builds siena shields red")
    state = play(state, "ann builds siena with red red blue shields red")
    assert (state.seats["ann"].vp, state.seats["ann"].ducats, state.city_regions["siena"]) == (
        4,
        12,
        ("red",),
    )
    # Icons given once in the components serve every build: no `with` needed.
    state = play(
        empty_round(start(components={"icons": {"pisa": ["white", "white", "red", "blue", "yellow"]}}))
    )
    state = play(state, "round income", "ben hand +1", "ben builds pisa shields blue red")
    assert state.seats["ben"].up["white"] == 2


def test_one_phase_3_action_plus_a_city_per_group_won() -> None:
    # « chaque joueur fait une seule action : construire une cité ou jouer des cartes de sa main »,
    # and the auction winner « Peut construire 1 cité » (text B: « immédiatement »).
    state = play(empty_round(start()), "round income", "ann hand +8", "ann ducats +10")
    state = play(state, "ann reserves red red", "ben reserves blue blue", "cat reserves yellow yellow")
    state = play(state, "ann wins red for 0")  # three groups of 2: red, blue, yellow in colour order
    state = play(state, "ann builds milano shields blue blue")  # the city her win gives, at once
    # A second city is ann's phase 3 action, which waits for the blue and yellow auctions.
    with pytest.raises(IllegalMoveError, match=r"phase 2 is not over: the blue \(2\), yellow \(2\)"):
        TRACKER.apply(state, "ann builds lucca shields red red")
    state = play(state, "nobody wins blue", "nobody wins yellow")
    state = play(state, "ann builds lucca shields red red")
    with pytest.raises(IllegalMoveError, match="phase 3 action"):
        TRACKER.apply(state, "ann places 1 red")
    state = play(state, "ben places 2 green")
    with pytest.raises(IllegalMoveError, match="phase 3 action"):
        TRACKER.apply(state, "ben builds firenze shields green green")


# --- refusals --------------------------------------------------------------------------------------
def ready(players: Sequence[str] = THREE) -> Table:
    """Round 2, phase 1 done (15 ducats and 8 cards each), Firenze built by the second player."""
    second = players[1]
    return play(empty_round(start(players)), "round income", f"{second} builds firenze shields green green")


def finish_roles(state: Table) -> Table:
    """Answer whatever phase 4 waits for: no bids, no card turned up, shields in green."""
    while state.steps:
        step = state.steps[0]
        if step.kind == "auction":
            state = play(state, f"nobody takes {step.role}")
        elif step.role.startswith("green"):
            state = play(state, f"{step.players[0]} turns up nothing")
        else:
            state = play(state, f"{step.players[0]} shield green")
    return state


REFUSALS = [
    ("ann builds roma shields red", MoveSyntaxError, "unknown city 'roma'"),
    ("ann builds firenze shields green green", IllegalMoveError, "firenze was built by ben"),
    ("ann pays 16", IllegalMoveError, "ann has 15 ducats, cannot pay 16"),
    ("cat wins green for 99", IllegalMoveError, "no green cards in the reserve"),
    ("ann places 1 purple", MoveSyntaxError, "unknown colour 'purple'"),
    ("ann places 9 red", IllegalMoveError, "hand as recorded holds 0 red and 8"),
    ("ann builds lucca shields red", IllegalMoveError, "places 2 shield(s)"),
    ("ann builds milano shields red red", IllegalMoveError, "regions touching milano"),
    ("ann builds milano with red red blue yellow shields blue", IllegalMoveError, "milano's card shows"),
    ("ann builds siena with red red shields red", IllegalMoveError, "a small city has 3 building icons"),
    ("ann builds bologna with red red blue blue shields red red", IllegalMoveError, "one pair"),
    ("ann reserves red red red", IllegalMoveError, "puts 2 cards in the reserve"),
    ("ann takes blue major for 1", IllegalMoveError, "phase 4 is not waiting"),
    ("ann shield atlantis", MoveSyntaxError, "unknown region 'atlantis'"),
    ("round ends", IllegalMoveError, "phase 4 (`round roles`) comes before"),
    ("round reserves red", IllegalMoveError, "only the last round"),
    ("ann ducats 3", MoveSyntaxError, "a correction is signed"),
    ("ann vp -1", IllegalMoveError, "would leave fewer than none"),
    ("ann shields red +13", IllegalMoveError, "more than 12"),
    ("dan vp +1", MoveSyntaxError, "unknown player 'dan'"),
    ("ann flies", MoveSyntaxError, "unknown verb 'flies'"),
    ("ann takes emperor for 2", MoveSyntaxError, "unknown role"),
    ("ann wins red", MoveSyntaxError, "'<player> wins <colour> for <ducats>'"),
    ("", MoveSyntaxError, "empty action"),
]


@pytest.mark.parametrize(("action", "error", "message"), REFUSALS)
def test_refusal_names_the_action_and_leaves_the_state(
    action: str, error: type[PbemError], message: str
) -> None:
    state = ready()
    before = copy.deepcopy(state)
    with pytest.raises(error) as raised:
        TRACKER.apply(state, action)
    assert message in str(raised.value)
    if action:
        assert repr(action) in str(raised.value)
    assert state == before


def test_no_city_in_the_first_round() -> None:
    # « Exception: au premier tour du jeu, il est interdit de construire une Cité. »
    state = play(start(), "round income")
    with pytest.raises(IllegalMoveError, match="no city may be built in the first round"):
        TRACKER.apply(state, "ann builds milano shields blue blue")


def test_apply_never_changes_the_state_it_is_given() -> None:
    state = ready()
    before = copy.deepcopy(state)
    after = play(state, "ann places 2 red", "round roles")
    assert state == before
    assert after != before


def test_phase_4_must_be_finished_and_blocks_the_other_phases() -> None:
    state = play(start(), "ann up blue +1", "round income", "round roles")
    with pytest.raises(IllegalMoveError, match="ann places a shield"):
        TRACKER.apply(state, "round ends")
    with pytest.raises(IllegalMoveError, match=r"phase 4 \(the roles\) has begun"):
        TRACKER.apply(state, "ann places 1 red")
    with pytest.raises(IllegalMoveError, match="phase 4 waits for this first"):
        TRACKER.apply(state, "ann turns up red")
    state = play(state, "ann shield red", "round ends")
    assert state.round == 2


def test_phase_3_waits_until_every_group_is_auctioned() -> None:
    # « Les enchères continuent jusqu'à ce que tous les groupes de cartes édifices aient été
    # achetés », then « Phase 3 ». Only an auction's winner builds during phase 2, the city its
    # win gives (« Peut construire 1 cité »).
    state = play(
        empty_round(start()),
        "round income",
        "ann reserves red red",
        "ben reserves blue blue",
        "cat reserves red yellow",
    )
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError) as raised:
        TRACKER.apply(state, "ben places 1 green")
    message = str(raised.value)
    assert "'ben places 1 green': phase 2 is not over" in message
    assert "the yellow (1), blue (2), red (3) groups (cards in brackets) still to be auctioned" in message
    assert "nobody wins <colour>" in message
    assert state == before
    with pytest.raises(IllegalMoveError, match="only a family that has won a group builds") as raised:
        TRACKER.apply(state, "cat builds siena with red red blue shields red")
    assert "the yellow (1), blue (2), red (3) groups" in str(raised.value)
    state = play(state, "ben wins yellow for 0")
    with pytest.raises(IllegalMoveError, match=r"the blue \(2\), red \(3\) groups"):
        TRACKER.apply(state, "ann places 1 green")
    state = play(state, "ben builds siena with red red yellow shields red")  # ben's win gives a city
    with pytest.raises(IllegalMoveError, match=r"the blue \(2\), red \(3\) groups"):
        TRACKER.apply(state, "ben builds verona with red red blue shields blue")
    state = play(state, "nobody wins blue")
    with pytest.raises(IllegalMoveError, match=r"the red \(3\) group \(cards in brackets\) still"):
        TRACKER.apply(state, "cat places 1 green")
    state = play(state, "nobody wins red", "cat places 1 green", "ann places 1 blue")
    assert (state.seats["cat"].up["green"], state.seats["ann"].up["blue"]) == (1, 1)


def test_each_family_reserves_exactly_two_cards_in_one_action() -> None:
    # « Choisit 2 cartes édifices de sa main et les pose face cachée »: two, no more and no fewer.
    state = play(start(), "round income")
    with pytest.raises(IllegalMoveError, match=r"puts 2 cards in the reserve .*: name 2, not 1"):
        TRACKER.apply(state, "ann reserves red")
    with pytest.raises(IllegalMoveError, match="name 2, not 3"):
        TRACKER.apply(state, "ann reserves red red blue")
    state = play(state, "ann reserves red blue")
    with pytest.raises(IllegalMoveError, match="ann has already put its 2 cards in the reserve"):
        TRACKER.apply(state, "ann reserves green green")
    # The reserve holds 2 cards a family before the first auction: its order depends on all.
    with pytest.raises(IllegalMoveError) as raised:
        TRACKER.apply(state, "ben wins red for 0")
    assert "the reserve is not complete: ben, cat have not put 2 cards in it" in str(raised.value)
    assert "the reserve holds 6 cards, 2 so far" in str(raised.value)
    state = play(state, "ben reserves green green")
    with pytest.raises(IllegalMoveError, match="cat has not put 2 cards in it"):
        TRACKER.apply(state, "ben wins red for 0")
    state = play(state, "cat reserves green white", "nobody wins white", "ben wins red for 0")
    assert state.seats["ben"].hand["red"] == 1
    # 2 players: « pose 3 cartes pour les enchères ».
    two = play(start(("ann", "ben")), "round income")
    with pytest.raises(
        IllegalMoveError,
        match=r"puts 3 cards in the reserve .*3 building cards in the reserve.*: name 3, not 2",
    ):
        TRACKER.apply(two, "ann reserves green green")


def test_a_reserve_after_phase_3_is_refused() -> None:
    # Phase 1 comes before phase 3: once a city or cards are recorded, the reserve is closed (a
    # table may skip recording phases 1 and 2, but not record them after phase 3).
    state = play(start(), "round income", "ann places 1 red")
    with pytest.raises(IllegalMoveError, match="phase 3 has begun this round"):
        TRACKER.apply(state, "ben reserves red red")


def test_roles_wait_for_every_group_to_be_auctioned() -> None:
    state = play(start(), "round income", "ann reserves red red")
    with pytest.raises(IllegalMoveError, match="red still to auction"):
        TRACKER.apply(state, "round roles")


# --- end of the game -------------------------------------------------------------------------------
def test_last_round_when_the_pile_runs_low() -> None:
    # « le nombre de cartes dans la pile est inférieur à 12 (dans une partie à 3 joueurs) ...: En
    # phase 1, les joueurs reçoivent uniquement leurs ducats »; « 6 cartes pour 3 joueurs »
    state = play(start(), "round income", "round roles", "round ends", "ann draws 77")
    assert state.deck == 11
    state = play(state, "round income")
    assert state.last_round
    assert (state.seats["ben"].ducats, state.seats["ben"].hand_size) == (15, 4)
    with pytest.raises(IllegalMoveError, match="the last round has no phase 1"):
        TRACKER.apply(state, "ann reserves red")
    with pytest.raises(IllegalMoveError, match="auctions 6 cards"):
        TRACKER.apply(state, "round reserves red red red blue blue blue green")
    # Exactly 6: « 6 cartes pour 3 joueurs », all in one action.
    with pytest.raises(IllegalMoveError, match=r"auctions 6 cards .*6 for 3 players.*name 6, not 5"):
        TRACKER.apply(state, "round reserves red red red blue blue")
    with pytest.raises(IllegalMoveError, match=r"phase 2 is not over: the red \(3\), blue \(3\)"):
        TRACKER.apply(play(state, "round reserves red red red blue blue blue"), "ann places 1 red")
    with pytest.raises(IllegalMoveError, match="already drawn"):
        TRACKER.apply(play(state, "round reserves red red red blue blue blue"), "round reserves green")
    state = play(
        state, "round reserves red red red blue blue blue", "ben wins red for 1", "cat wins blue for 1"
    )
    state = play(state, "round roles", "round ends")
    assert state.over
    assert TRACKER.income_action(state) is None
    with pytest.raises(IllegalMoveError, match="the game is over"):
        TRACKER.apply(state, "round income")
    (report, _) = TRACKER.score(state)
    assert report.title == "Final score"


def test_last_round_with_a_short_pile_draws_what_the_pile_and_discards_hold() -> None:
    # « S'il n'y a pas assez de cartes dans la pioche, réutiliser des cartes déjà défaussées »:
    # 3 in the pile and the 2 red cards nobody bid on make 5, fewer than « 6 cartes ».
    state = play(
        start(),
        "round income",
        "ann reserves red red",
        "ben reserves blue blue",
        "cat reserves yellow yellow",
        "nobody wins red",
        "ann wins blue for 0",
        "ann wins yellow for 0",
        "round roles",
        "round ends",
        "ann draws 85",
        "round income",
    )
    assert (state.last_round, state.deck, state.discards) == (True, 3, 2)
    with pytest.raises(IllegalMoveError) as raised:
        TRACKER.apply(state, "round reserves red red red blue blue blue")
    assert "hold only 5, all drawn" in str(raised.value)
    assert "name 5, not 6" in str(raised.value)
    state = play(state, "round reserves red red red blue blue")
    assert (state.deck, state.discards, sum(state.reserve.values())) == (0, 0, 5)


def test_two_players_last_round_draws_six_or_all_that_remain() -> None:
    # Text A: « tirer 6 cartes Bâtiment de la pioche (ou toutes celles restantes) »; text B: « lors
    # de la phase 2, toutes les cartes restantes seront mises aux enchères ». 8 are left: 6 or 8.
    state = play(start(("ann", "ben")), "round income", "round roles", "round ends", "ann draws 47")
    state = play(state, "round income")
    assert (state.last_round, state.deck) == (True, 8)
    with pytest.raises(IllegalMoveError) as raised:
        TRACKER.apply(state, "round reserves red red red blue blue blue green")
    message = str(raised.value)
    assert "auctions 6 cards (text A" in message and "or all 8 left in the pile (text B" in message
    assert "name 6 or 8, not 7" in message
    assert play(state, "round reserves red red red blue blue blue").deck == 2
    assert play(state, "round reserves red red red blue blue blue green green").deck == 0


def test_game_ends_when_fewer_than_four_cities_are_face_up() -> None:
    # « Au début de la phase 1, il reste moins de 4 cartes Cités disponibles ... le jeu se termine
    # immédiatement »: 15 cards, so after the 12th city only 3 are left face up.
    state = play(
        start(rich_start=True), *(f"{name} {what} +99" for name in THREE for what in ("hand", "ducats"))
    )
    cities = ["siena", "orvieto", "venezia", "verona", "perugia", "urbino", "padova", "lucca", "milano"]
    cities += ["bologna", "mantova", "firenze"]
    for number, city in enumerate(cities):
        size = 3 if number < 5 else 4 if number < 10 else 5
        icons = {3: "red red red", 4: "red red blue yellow", 5: "red red blue yellow white"}[size]
        icons = "" if city in ("lucca", "milano", "firenze") else f"with {icons} "
        shields = "green green" if size > 3 else "green"
        builder = THREE[number % 3]
        state = finish_roles(play(state, f"{builder} builds {city} {icons}shields {shields}", "round roles"))
        state = play(state, "round ends")
        assert state.over == (number == len(cities) - 1)


# --- a whole short game ----------------------------------------------------------------------------
def test_short_game_replayed_to_its_totals() -> None:
    """Two rounds with the variant (cities in round 1), then the table ends the game."""
    state = play(
        start(rich_start=True),
        "round income",  # 10 + 6 ducats each; 4 cards each
        "ann reserves green yellow",
        "ben reserves green red",
        "cat reserves blue white",
        # Order: white 1, red 1, blue 1, yellow 1 (colour order), then green 2.
        "cat wins white for 1",  # cat 15
        "ben wins red for 2",  # ben 14
        "nobody wins blue",
        "ann wins yellow for 1",  # ann 15
        "ann wins green for 3",  # ann 12
        "ann builds firenze shields brown green",  # ann 7 ducats, 8 VP; no roles held yet
        "ben places 1 red",
        "cat places 1 white",
        "round roles",
        # green: ann alone (2) takes the master, turns 1 down; nothing else face down to turn up.
        # white: cat (1) the bishop, turns 1 down, +1 VP.
        # red: ann 1, ben 1: case c.
        "ben takes red major for 1",  # ben 13; turns his red down; draws 1
        # blue: ann (1) the noble, turns it down, places a shield.
        "ann shield red",
        # yellow: ann (1) the banker, turns it down, +2 ducats: ann 9.
        "round ends",
    )
    assert {name: (seat.ducats, seat.vp) for name, seat in state.seats.items()} == {
        "ann": (9, 8),
        "ben": (13, 0),
        "cat": (15, 1),
    }
    state = play(
        state,
        "round income",  # ann 15, ben 19, cat 21
        "ann reserves white white",
        "ben reserves blue blue",
        "cat reserves yellow red",
        "cat wins red for 2",  # cat 19
        "ben wins yellow for 1",  # ben 18
        "cat wins white for 3",  # cat 16
        "nobody wins blue",
        # cat: 12 ducats, +6 VP; ben +2 (red major), ann +2 (blue major); cat's own bishop nothing.
        "cat builds lucca with white white red blue shields red yellow",
        "ann places 2 green",
        # ben: 14 ducats, +6 VP; ann +2 (blue, once though two blue icons) +2 (yellow).
        "ben builds milano shields blue green",
        "round roles",
        # green: ann 3: master, turns 2 down (1 up, 3 down) and turns up her face-down yellow.
        "ann turns up yellow",
        # white: cat 2: bishop, turns 1 down, +1 VP (cat 8). red: ann, ben, cat 1 each: case c.
        "nobody takes red major",
        # blue: ben 2, cat 1: noble to ben (turns 1 down), knight to cat; each places a shield.
        "ben shield yellow",
        "cat shield yellow",
        # yellow: ann 1 (turned up), ben 1: case c.
        "ann takes yellow major for 5",  # ann 10, then +2: 12
        "game ends",
    )
    # Track: ann 8 + 2 + 2 + 2 = 14; ben 2 + 6 = 8; cat 1 + 6 + 1 = 8.
    # Regions: brown ann 5; green ann 1 ben 1: 5 each; red ann 1 cat 1: 5 each; blue ben 5;
    # yellow cat 2, ben 1: cat 5, ben 2. ann 15, ben 12, cat 10.
    # Roles: ann master + banker 4; ben noble 2; cat bishop + knight 3.
    # Sets: nobody has all five colours in front. Ducats: ann 12, ben 14, cat 12: ben +2.
    # Hands: ann 0, ben 2, cat 3: cat +2.
    # ann 14 + 15 + 4 = 33; ben 8 + 12 + 2 + 2 = 24; cat 8 + 10 + 3 + 2 = 23.
    assert TRACKER.totals(state) == {"ann": 33, "ben": 24, "cat": 23}
    (report, _) = TRACKER.score(state)
    assert report.notes[-1] == "winner: ann"
    assert report.rows[1][:8] == ("ben", 8, 12, 2, 0, 2, 0, 24)
    # Every card is somewhere: pile, hands, in front of a family, or removed from play.
    placed = sum(seat.played + seat.hand_size for seat in state.seats.values())
    assert state.deck + placed + state.discards == 100


# --- the grammar, queries and completion -----------------------------------------------------------
def test_every_event_example_applies_in_a_game() -> None:
    """One game that uses every form's example as printed by ``pbem table events``."""
    game = (
        "round income",
        "alice draws 2",
        "alice reserves green red",
        "bob reserves green green",
        "carol reserves green green",
        "nobody wins red",  # red 1, green 5: the fewest first
        "bob wins green for 3",
        "alice hand +1",
        "alice builds firenze shields brown green",  # rich_start: a city in round 1
        "carol places 2 white",
        "alice down white +1",
        "bob up white +1",
        "bob up blue +1",
        "round roles",
        "alice turns up white",  # green: alice's master turns up her face-down white
        "nobody takes white minor",  # white: carol 2; alice 1 and bob 1 tie for the minor
        "bob takes blue major for 2",  # blue: alice 1 and bob 1 tie for the major
        "bob shield red",
        "round ends",
        "alice pays 3",
        "alice ducats +2",
        "alice vp -1",
        "bob hand +1 red",
        "carol shields blue +1",
        "bob down green +1",
        "carol holds yellow minor",
        "carol draws 80",  # 5 cards left: the next round is the last
        "round income",
        "round reserves green green red blue yellow white",  # 5 from the pile, 1 removed earlier
        "game ends",
    )
    assert {form.example for form in TRACKER.events()} <= set(game)
    state = play(start(("alice", "bob", "carol"), rich_start=True), *game)
    assert state.over
    assert state.reserve == {"green": 2, "white": 1, "red": 1, "blue": 1, "yellow": 1}
    assert (state.deck, state.discards) == (0, 0)


@pytest.mark.parametrize("form", [form.example for form in TRACKER.queries()])
def test_every_query_example_answers(form: str) -> None:
    sheet = TRACKER.query(ready(), form)
    assert sheet and sheet[0].title


def test_city_query_gives_the_role_points() -> None:
    state = play(start(), "ann holds bishop", "ben holds priest", "cat holds noble")
    (report,) = TRACKER.query(state, "city lucca")
    rows = {str(row[0]): row[1] for row in report.rows}
    assert (rows["cost"], rows["VP"], rows["icons"]) == (4, 6, "white white red blue")
    assert rows["if ann builds, roles score"] == "ben +1, cat +2"
    assert rows["if cat builds, roles score"] == "ann +2, ben +1"


def test_show_lists_the_table() -> None:
    sheet = TRACKER.show(ready())
    assert [report.title for report in sheet] == ["Il Principe", "Regions", "Roles"]
    assert sheet[0].rows[1][-1] == "firenze"


def test_completion() -> None:
    state = ready()
    assert TRACKER.complete(state, [], "r") == ["round"]
    assert TRACKER.complete(state, ["ann"], "b") == ["builds"]
    assert "firenze" not in TRACKER.complete(state, ["ann", "builds"], "")
    assert TRACKER.complete(state, ["ann", "builds", "siena", "shields"], "p") == ["purple"]
    assert TRACKER.complete(state, ["ann", "takes", "blue"], "") == ["major", "minor"]
    assert TRACKER.complete(state, ["nobody"], "") == ["holds", "takes", "wins"]


def test_start_refuses_names_that_read_as_words() -> None:
    with pytest.raises(UsageError, match="cannot be told"):
        start(("round", "ben"))
    with pytest.raises(UsageError, match="unknown city"):
        start(components={"icons": {"roma": ["red", "red", "red"]}})
