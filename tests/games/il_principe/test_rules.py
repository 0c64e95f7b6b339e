"""Il Principe by email: the worked examples of seed 002 through the email rules, and each kind of
illegal move refused in one line with the game unchanged. The rules text is quoted beside each test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.il_principe.rules import RULES
from pbem.games.il_principe.state import ACTIONS, AUCTION, RESERVE, ROLES, SHIELD, Game, counts
from pbem.games.il_principe.view import breakdown, winners
from pbem.kit.dealer import Dealer
from pbem.kit.seats import FollowUp
from pbem.kit.stand_in import Defaults
from tests.games.il_principe.support import dealer_for, new_game

SEATS = ("andrea", "barbara", "tom", "nick")


def started(
    seats: tuple[str, ...] = SEATS, seed: int = 3, rich_start: bool = False
) -> tuple[Game, Dealer[Game]]:
    game = new_game(seats, rich_start=rich_start)
    dealer = dealer_for(game, seed)
    return dealer.settle(game), dealer


def refused(game: Game, dealer: Dealer[Game], seat: str, text: str, words: str) -> None:
    before = game
    with pytest.raises(IllegalMoveError, match=words) as caught:
        dealer.play(game, seat, text)
    assert "\n" not in str(caught.value)
    assert game == before


def in_actions(game: Game, round_: int = 2) -> Game:
    """The table at phase 3 of a later round, Il Principe first."""
    return replace(
        game, phase=ACTIONS, round=round_, turn=game.principe, acted=(), follow_ups=(), auction=None
    )


def test_setup_and_phase_one() -> None:
    """« Tirer les 4 premières cartes Cité »; « Reçoit 5 pièces ... Pioche 4 cartes ... Choisit 2
    cartes »; text B: « 5 ducats comme capital de départ »."""
    game, _ = started()
    assert len(game.face_up) == 4 and game.cities_left == 11
    assert all(player.ducats == 10 and len(player.hand) == 4 for player in game.players)
    assert game.deck == 100 - 16
    assert RULES.demands(game)[0].kind == "sealed"
    assert {demand.step for demand in RULES.demands(game)} == {"round 1 reserve"}


def test_two_players_and_the_variant() -> None:
    """« 7 bâtiments de chaque couleur », « tirent 5 bâtiments et posent 3 », « 6 ducats »; the
    « Variante »: « 10 ducats comme capital de départ ... 6 ducats ... construire une cité lors de
    la première manche »."""
    game, _ = started(("a", "b"))
    assert game.deck == 65 - 10 and game.cities_left == 10 - 4
    assert all(player.ducats == 11 and len(player.hand) == 5 for player in game.players)
    assert len(RULES.hidden_decks(game)[0].cards) == 65
    rich, _ = started(("a", "b", "c"), rich_start=True)
    assert all(player.ducats == 16 for player in rich.players)
    assert rich.settings.rules.build_first_round


def reserve_all(game: Game, dealer: Dealer[Game]) -> Game:
    for seat in game.seats:
        game = dealer.play(game, seat, "reserve " + " ".join(game.player(seat).hand[:2]))
    for seat in game.seats:
        game = dealer.play(game, seat, "show")
    return game


def test_reserve_shown_and_groups_in_order() -> None:
    """« en commençant par le groupe de cartes le moins nombreux. En cas d'égalité, on utilise
    l'ordre des couleurs »; « Le joueur à la gauche de Il Principe commence chaque enchère »."""
    game, dealer = started()
    refused(game, dealer, "andrea", "reserve " + game.player("andrea").hand[0], "puts 2 cards")
    refused(game, dealer, "andrea", "reserve " + " ".join(game.player("barbara").hand[:2]), "holds no")
    game = reserve_all(game, dealer)
    assert game.phase == AUCTION and sum(game.reserve) == 8
    reserve = dict(zip(("green", "white", "red", "blue", "yellow"), game.reserve, strict=True))
    fewest = min((n, i) for i, n in enumerate(game.reserve) if n)
    assert game.auction is not None and game.auction.lot == list(reserve)[fewest[1]]
    assert game.auction.turn == "barbara"
    refused(game, dealer, "andrea", "bid 1", "not andrea's turn")
    game = dealer.play(game, "barbara", "bid 2")
    refused(game, dealer, "tom", "bid 2", "not more than barbara's 2")
    refused(game, dealer, "tom", "bid 99", "cannot bid 99")
    assert game.auction is not None
    lot = game.auction.lot
    for seat in ("tom", "nick", "andrea"):
        game = dealer.play(game, seat, "pass")
    # « Paie l'enchère à la banque, Prend le pion Il Principe »; no city in round 1.
    barbara = game.player("barbara")
    assert barbara.ducats == 8 and game.principe == "barbara"
    assert barbara.known[("green", "white", "red", "blue", "yellow").index(lot)] == reserve[lot]
    assert not game.follow_ups
    assert game.auction is None or game.auction.turn == "tom"


def test_group_nobody_bids_on_is_removed() -> None:
    """« Si tout le monde passe (personne ne fait d'enchère), le groupe de cartes est retiré »."""
    game, dealer = started()
    game = reserve_all(game, dealer)
    assert game.auction is not None
    lot, count = (
        game.auction.lot,
        game.reserve[("green", "white", "red", "blue", "yellow").index(game.auction.lot)],
    )
    for seat in ("barbara", "tom", "nick", "andrea"):
        game = dealer.play(game, seat, "pass")
    assert game.removed == counts([lot] * count)


def lucca_table() -> tuple[Game, Dealer[Game]]:
    """Lucca face up, Barbara holding its cards (2 white, blue, red) and the money."""
    game, dealer = started()
    game = in_actions(game)
    game = replace(game, principe="barbara", turn="barbara", face_up=("lucca", *game.face_up[1:]))
    barbara = game.player("barbara")
    game = game.with_player(replace(barbara, known=counts(["white", "white", "blue", "red"]), ducats=10))
    return game, dealer


def test_lucca_example() -> None:
    """« Barbara construit Lucca : 2 Cathédrales (blanc), 1 château (bleu) et un Hôtel de Ville
    (rouge). Andrea qui possède l'évêque (rôle majeur des blancs) gagne 2 PVs. Tom qui possède le
    prêtre (rôle mineur des blancs) et le noble (majeur bleu) gagne 1 PV pour le blanc et 2 PVs pour
    le bleu. Barbara ramasse seulement les PVs indiqués sur la carte Lucca »."""
    game, dealer = lucca_table()
    game = replace(game, roles={"white major": "andrea", "white minor": "tom", "blue major": "tom"})
    game = dealer.play(game, "barbara", "build lucca with white white blue red shields blue brown")
    assert game.player("andrea").vp == 2
    assert game.player("tom").vp == 3
    barbara = game.player("barbara")
    assert barbara.vp == 6 and barbara.ducats == 6 and barbara.shields == {"blue": 1, "brown": 1}
    assert barbara.up == counts(["white", "white", "blue", "red"])
    assert "lucca" not in game.face_up and game.built == {"lucca": "barbara"}
    assert len(game.face_up) == 4 and game.turn == "tom"


def test_firenze_example() -> None:
    """« Marcel (famille Medici) veut construire Firenze. Il doit payer 5 pièces et jouer de sa main
    2 Universités (vert), 1 Hôtel de Ville (rouge), 1 château (bleu) et une place de marché (jaune).
    ... Il peut placer 2 boucliers et peut choisir entre les 3 régions qui touchent Firenze ». The
    example's « Il gagne 6 PVs » contradicts « 8 PVs pour une grosse cité »: pbem keeps 8. The
    cards come from the hand, by token while only Marcel knows them."""
    game, dealer = started(("marcel", "anna", "bruno"), seed=11)
    game = in_actions(game)
    game = replace(game, face_up=("firenze", *game.face_up[1:]))
    tokens = {"green": [], "red": [], "blue": [], "yellow": []}  # type: dict[str, list[str]]
    for token in dealer.pile:
        colour = dealer.cards[token]
        if colour in tokens and len(tokens[colour]) < (2 if colour == "green" else 1):
            tokens[colour].append(token)
    hand = [token for group in tokens.values() for token in group]
    dealer.pile = [token for token in dealer.pile if token not in hand]
    marcel = replace(game.player("marcel"), hand=tuple(hand), ducats=7)
    game = replace(game.with_player(marcel), principe="marcel", turn="marcel")
    refused(
        game, dealer, "marcel", f"build firenze with {' '.join(hand)} shields red green", "does not touch"
    )
    refused(game, dealer, "marcel", f"build firenze with {' '.join(hand)} shields green", "places 2 shield")
    refused(
        game,
        dealer,
        "marcel",
        f"build firenze with {' '.join(hand[:4])} green shields green",
        "holds 0 public",
    )
    game = dealer.play(game, "marcel", f"build firenze with {' '.join(hand)} shields brown purple")
    marcel = game.player("marcel")
    assert marcel.vp == 8 and marcel.ducats == 2 and marcel.hand == ()
    assert marcel.up == counts(["green", "green", "red", "blue", "yellow"])
    assert marcel.shields == {"brown": 1, "purple": 1}
    assert all(token in game.shown for token in hand)


def test_builds_refused() -> None:
    """« au premier tour du jeu, il est interdit de construire une Cité »; « Seules les cartes Cité
    placées face visible sont constructibles »; the city's icons; its cost."""
    game, dealer = lucca_table()
    build = "build lucca with white white blue red shields blue brown"
    refused(replace(game, round=1), dealer, "barbara", build, "no city may be built in the first round")
    hidden = next(city for city in game.pool)
    refused(game, dealer, "barbara", build.replace("lucca", hidden), "not face up")
    refused(
        game,
        dealer,
        "barbara",
        "build lucca with white blue blue red shields blue brown",
        "holds 1 public blue",
    )
    barbara = game.player("barbara")
    poor = game.with_player(replace(barbara, ducats=3))
    refused(poor, dealer, "barbara", build, "costs 4")
    wrong = game.with_player(replace(barbara, known=counts(["white", "white", "blue", "blue"])))
    refused(
        wrong,
        dealer,
        "barbara",
        "build lucca with white white blue blue shields blue brown",
        "takes white white red blue",
    )
    refused(game, dealer, "tom", build, "not tom's turn")
    refused(game, dealer, "barbara", "play white blue", "must all be of one colour")
    refused(game, dealer, "barbara", "turn up red", "only by the green role")
    refused(game, dealer, "barbara", "shield blue", "only by the blue role")
    refused(game, dealer, "barbara", "show", "once every reserve")
    refused(game, dealer, "barbara", "reserve white white", "phase 1")
    with pytest.raises(MoveSyntaxError):
        RULES.parse("build lucca")
    with pytest.raises(MoveSyntaxError):
        RULES.parse("reserve gold")


def roles_table(ups: dict[str, int], colour: str = "blue") -> tuple[Game, Dealer[Game]]:
    """Phase 3 done but for its last seat, with these face-up cards of ``colour``."""
    game, dealer = started(("giorgio", "nick", "roberto", "marco"))
    game = in_actions(game)
    index = ("green", "white", "red", "blue", "yellow").index(colour)
    for seat, number in ups.items():
        player = game.player(seat)
        up = tuple(number if i == index else 0 for i in range(5))
        game = game.with_player(replace(player, up=up, ducats=10))
    last = game.seats[-1]
    return replace(game, principe="giorgio", turn=last, acted=game.seats[:-1]), dealer


def test_roles_case_a() -> None:
    """« Giorgio a 4 ..., Nick a 3 cartes bleues, Roberto et Marco 1 ... Giorgio gagne la tuile du
    Rôle majeur bleu et Nick celle du Rôle mineur bleu »; the major turns « la moitié (arrondie
    au-dessus) » face down; the blue roles each place a shield."""
    game, dealer = roles_table({"giorgio": 4, "nick": 3, "roberto": 1, "marco": 1})
    game = dealer.play(game, "marco", "pass")
    assert game.phase == ROLES and game.roles == {"blue major": "giorgio"}
    assert game.player("giorgio").up[3] == 2 and game.player("giorgio").down[3] == 2
    assert RULES.demands(game)[0].seat == "giorgio"
    refused(game, dealer, "giorgio", "pass", "places a shield")
    refused(game, dealer, "giorgio", "shield nowhere", "no region")
    game = dealer.play(game, "giorgio", "shield red")
    assert game.roles["blue minor"] == "nick" and game.player("nick").up[3] == 3
    game = dealer.play(game, "nick", "shield red")
    assert game.player("giorgio").shields == {"red": 1} and game.player("nick").shields == {"red": 1}


def test_roles_case_b() -> None:
    """« Giorgio a 4 cartes Bâtiment bleues, Nick, Marco ont chacun 2 ..., Roberto 1 ... Marco et
    Nick ... vont devoir enchérir tous les 2 pour la tuile de Rôle Mineur »."""
    game, dealer = roles_table({"giorgio": 4, "nick": 2, "marco": 2, "roberto": 1})
    game = dealer.play(game, "marco", "pass")
    game = dealer.play(game, "giorgio", "shield red")
    assert game.auction is not None and game.auction.lot == "blue minor"
    assert game.auction.among == ("nick", "marco") and game.auction.turn == "nick"
    refused(game, dealer, "roberto", "bid 1", "not roberto's turn")
    game = dealer.play(game, "nick", "bid 1")
    game = dealer.play(game, "marco", "pass")
    assert game.roles["blue minor"] == "nick" and game.principe == "nick"
    assert game.player("nick").ducats == 9


def test_roles_case_c_and_nobody_bids() -> None:
    """« Giorgio, Marco et Roberto ont 3 cartes Bâtiment bleues. Nick une seule ... personne n'aura
    le Rôle Mineur bleu »; « Si tout le monde passe ... la tuile de Rôle reste sur le plateau »."""
    game, dealer = roles_table({"giorgio": 3, "marco": 3, "roberto": 3, "nick": 1})
    game = dealer.play(game, "marco", "pass")
    assert game.auction is not None and game.auction.among == ("giorgio", "roberto", "marco")
    assert game.auction.turn == "roberto"
    for seat in ("roberto", "marco", "giorgio"):
        game = dealer.play(game, seat, "pass")
    assert "blue major" not in game.roles and "blue minor" not in game.roles


def test_green_role_turns_a_card_up() -> None:
    """« Le joueur retourne 1 carte Bâtiment (sauf une verte) devant lui »."""
    game, dealer = roles_table({"giorgio": 2}, colour="green")
    giorgio = game.player("giorgio")
    game = game.with_player(replace(giorgio, down=counts(["red", "green"])))
    game = dealer.play(game, "marco", "pass")
    assert game.roles["green major"] == "giorgio"
    refused(game, dealer, "giorgio", "turn up green", "a card of any colour but green")
    refused(game, dealer, "giorgio", "turn up blue", "no face-down blue")
    game = dealer.play(game, "giorgio", "turn up red")
    # The red card now face up gives Giorgio the red majority, and its major role turns it down again.
    assert game.roles["red major"] == "giorgio"


def test_region_example_and_final_score() -> None:
    """« Dans la région bleue, la famille Carraresi a le plus de blasons et reçoit 5 points ... les
    Visconti et les Gonzaga ont un blason chacun et donc reçoivent tout deux 2 ... Dans la région
    verte, D'Este à la majorité (3 blasons) ... Carraresi reçoit 2 ... Dans la région rouge,
    Visconti a la majorité seul (1 blason) ... dans la région jaune, Medici et Gonzaga ont tout deux
    2 blasons et reçoivent 5 points ... Visconti a 1 blason dans la région jaune mais ne reçoit
    aucun point »."""
    seats = ("carraresi", "visconti", "gonzaga", "deste", "medici")
    game, _ = started(seats)
    shields = {
        "carraresi": {"blue": 2, "green": 1},
        "visconti": {"blue": 1, "red": 1, "yellow": 1},
        "gonzaga": {"blue": 1, "yellow": 2},
        "deste": {"green": 3},
        "medici": {"yellow": 2},
    }
    for seat, placed in shields.items():
        player = game.player(seat)
        game = game.with_player(replace(player, shields=placed, ducats=0, hand=(), vp=0))
    game = replace(game, phase="over")
    regions = {seat: row["regions"] for seat, row in breakdown(game).items()}
    assert regions == {"carraresi": 5 + 2, "visconti": 2 + 5, "gonzaga": 2 + 5, "deste": 5, "medici": 5}


def test_tie_breaks() -> None:
    """« celui qui a joué le plus de cartes Bâtiment l'emporte. S'il y a toujours égalité, ... le
    Rôle Majeur le plus important selon l'ordre des couleurs »."""
    game, _ = started(("a", "b", "c"))
    for seat in game.seats:
        game = game.with_player(replace(game.player(seat), hand=(), ducats=0, vp=10, up=counts(["red"])))
    game = replace(game, roles={"yellow major": "a", "white major": "b"})
    # a and b: 10 + 2 for a major role + 2 for most ducats + 2 for most cards in hand; c has no role.
    assert {seat: row["total"] for seat, row in breakdown(game).items()} == {"a": 16, "b": 16, "c": 14}
    assert winners(game)[0] == ["b"]  # the same cards played; white comes before yellow
    game = game.with_player(replace(game.player("a"), down=counts(["blue"])))
    assert winners(game)[0] == ["a"]  # one more card played


def test_default_moves() -> None:
    """A late seat passes where it may; the reserve takes the first cards of its hand."""
    game, _ = started()
    move = RULES.default_move(game, "andrea", "round 1 reserve")
    assert move is not None
    assert RULES.format(move) == "reserve " + " ".join(game.player("andrea").hand[:2])
    assert game.phase == RESERVE


def test_a_late_seats_blue_shield_goes_where_the_shared_randomness_says() -> None:
    """The blue role: « place l'un de ses blasons dans n'importe quelle région ». With
    default_places=chance a late seat's shield goes in a region picked by the value the engine
    gives (fixed by every seat's randomness), the same for the same value, always a legal move;
    a game made before the option puts it in the first region in alphabetical order."""
    game, _ = started()
    seat = game.principe
    due = replace(in_actions(game), follow_ups=(FollowUp(seat, SHIELD, "blue major"),))
    regions = sorted(due.components.regions)
    step = RULES.demands(due)[0].step
    assert RULES.format(RULES.default_move(due, seat, step)) == f"shield {regions[0]}"  # type: ignore[arg-type]
    assert RULES.played_by_defaults(due, (), b"x" * 32) is due
    chancy = replace(due, defaults=Defaults.of({"default_places": "chance"}))
    placed = set()
    for value in range(60):
        told = RULES.played_by_defaults(chancy, (), value.to_bytes(32, "big"))
        move = RULES.default_move(told, seat, step)
        assert move is not None and move == RULES.default_move(told, seat, step)
        RULES.check(told, seat, move)
        placed.add(RULES.format(move).removeprefix("shield "))
    assert placed == set(regions)
