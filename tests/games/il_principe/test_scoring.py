"""Il Principe: regions, role majorities, the set bonus, the most ducats and cards, the tie-breaks.

Rules text: seed 002 (/work/shared/seeds/002_70b0a4816bae13f8.txt), two French translations; the
first says "Phase 4" and "Calcul des points de Victoire", the second "Phase 4 - Distribution des
rôles" and "Points de victoire à la fin de la partie". Every expected number is the text's own,
quoted next to it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pbem.errors import IllegalMoveError
from pbem.games.il_principe import scoring
from pbem.games.il_principe.table.state import Table
from pbem.games.il_principe.table.tracker import TRACKER

FAMILIES = ("medici", "visconti", "carraresi", "deste", "gonzaga")


def table(players: Sequence[str], *actions: str) -> Table:
    state = TRACKER.start(players, "standard", {}, None)
    for action in actions:
        state, _ = TRACKER.apply(state, action)
    return state


# --- regions ---------------------------------------------------------------------------------------
def seed_regions() -> Table:
    """The second text's "Exemple d'évaluation finale dans les régions", shields placed by hand."""
    return table(
        FAMILIES,
        # « Dans la région bleue, la famille Carraresi a le plus de blasons ... les Visconti et les
        # Gonzaga ont un blason chacun »
        "carraresi shields blue +2",
        "visconti shields blue +1",
        "gonzaga shields blue +1",
        # « Dans la région verte, D'Este à la majorité (3 blasons) ... Carravaresi reçoit 2 »
        "deste shields green +3",
        "carraresi shields green +1",
        # « Dans la région rouge, Visconti a la majorité seul (1 blason) »
        "visconti shields red +1",
        # « dans la région jaune, Medici et Gonzaga ont tout deux 2 blasons ... Visconti a 1 blason »
        "medici shields yellow +2",
        "gonzaga shields yellow +2",
        "visconti shields yellow +1",
    )


def test_seed_region_example_blue_green_red_yellow() -> None:
    points = scoring.regions(seed_regions())
    # « Carraresi ... reçoit 5 points ... Visconti et Gonzaga ... reçoivent tout deux 2 points »
    assert points["blue"] == {"medici": 0, "visconti": 2, "carraresi": 5, "deste": 0, "gonzaga": 2}
    # « D'Este ... reçoit 5 points de victoire, tandis que Carravaresi reçoit 2 points »
    assert points["green"] == {"medici": 0, "visconti": 0, "carraresi": 2, "deste": 5, "gonzaga": 0}
    # « Visconti a la majorité seul (1 blason) et reçoit 5 points »
    assert points["red"] == {"medici": 0, "visconti": 5, "carraresi": 0, "deste": 0, "gonzaga": 0}
    # « Medici et Gonzaga ... reçoivent 5 points de victoire chacun ... Visconti ... ne reçoit aucun »
    assert points["yellow"] == {"medici": 5, "visconti": 0, "carraresi": 0, "deste": 0, "gonzaga": 5}
    assert set(points["brown"].values()) == set(points["purple"].values()) == {0}


def test_seed_region_example_in_the_score_and_the_regions_query() -> None:
    state = seed_regions()
    rows = {name: row["regions"] for name, row in scoring.breakdown(state).items()}
    assert rows == {"medici": 5, "visconti": 7, "carraresi": 7, "deste": 5, "gonzaga": 7}
    (report,) = TRACKER.query(state, "regions")
    assert ("yellow", "medici 2, visconti 1, gonzaga 2", "medici 5, gonzaga 5") in report.rows


@pytest.mark.parametrize(
    ("shields", "expected"),
    [
        # « s'il n'y a qu'un seul joueur ayant la majorité ..., et un joueur ou plus la 2e majorité,
        # le 1er joueur gagne 5 PVs, ceux de la 2e majorité gagnent 2 PVs »
        ({"a": 3, "b": 2, "c": 2, "d": 1}, {"a": 5, "b": 2, "c": 2, "d": 0}),
        # « s'il y a 2 joueurs ou plus avec une majorité ..., ils gagnent tous 5 PVs ; Les autres
        # joueurs ne gagnent rien »
        ({"a": 2, "b": 2, "c": 1, "d": 0}, {"a": 5, "b": 5, "c": 0, "d": 0}),
        # One family alone in the region: 5, and nobody is second.
        ({"a": 1, "b": 0, "c": 0, "d": 0}, {"a": 5, "b": 0, "c": 0, "d": 0}),
        ({"a": 0, "b": 0}, {"a": 0, "b": 0}),
    ],
)
def test_region_majorities(shields: dict[str, int], expected: dict[str, int]) -> None:
    # « ils reçoivent chacun 5 points », « reçoivent chacun 2 points »
    assert scoring.region_points(shields, 5, 2) == expected


# --- role majorities -------------------------------------------------------------------------------
PHASE4 = ("giorgio", "nick", "roberto", "marco")


def test_role_case_a_single_most_and_single_second() -> None:
    # « Giorgio a 4 cartes ..., Nick a 3 cartes bleues, Roberto et Marco 1. ... Giorgio gagne la
    # tuile du Rôle majeur bleu et Nick celle du Rôle mineur bleu. »
    state = table(PHASE4, "giorgio up blue +4", "nick up blue +3", "roberto up blue +1", "marco up blue +1")
    state, _ = TRACKER.apply(state, "round roles")
    state, _ = TRACKER.apply(state, "giorgio shield red")  # blue major's effect, then the minor's
    state, _ = TRACKER.apply(state, "nick shield red")
    assert state.roles["blue major"] == "giorgio"
    assert state.roles["blue minor"] == "nick"
    # « il doit retourner face cachée la moitié (arrondie au-dessus) »: 2 of 4; the minor turns none.
    assert (state.seats["giorgio"].up["blue"], state.seats["giorgio"].down["blue"]) == (2, 2)
    assert (state.seats["nick"].up["blue"], state.seats["nick"].down["blue"]) == (3, 0)
    assert state.roles_done


def test_role_case_b_tied_seconds_bid_for_the_minor() -> None:
    # « Giorgio a 4 cartes Bâtiment bleues, Nick, Marco ont chacun 2 cartes bleues, Roberto 1. ...
    # Marco et Nick ... vont devoir enchérir ... Roberto ne gagne rien et ne participe pas »
    state = table(PHASE4, "giorgio up blue +4", "nick up blue +2", "marco up blue +2", "roberto up blue +1")
    state, _ = TRACKER.apply(state, "round roles")
    state, _ = TRACKER.apply(state, "giorgio shield red")
    assert state.roles["blue major"] == "giorgio"
    with pytest.raises(IllegalMoveError, match="only nick, marco may bid for blue minor"):
        TRACKER.apply(state, "roberto takes blue minor for 1")
    state, _ = TRACKER.apply(state, "marco takes knight for 2")
    assert state.roles["blue minor"] == "marco"
    assert state.seats["marco"].ducats == 3  # 5 to start, the bid paid to the bank
    assert state.principe == "marco"  # « gagne la tuile du Rôle et le pion Il Principe »
    assert state.seats["marco"].up["blue"] == 2  # « Cela ne s'applique pas pour les Rôles Mineurs »


def test_role_case_c_tied_most_bid_for_the_major_and_the_minor_stays() -> None:
    # « Giorgio, Marco et Roberto ont 3 cartes Bâtiment bleues. Nick une seule. Seul le Rôle Majeur
    # bleu sera distribué ... personne n'aura le Rôle Mineur bleu »
    state = table(PHASE4, "giorgio up blue +3", "marco up blue +3", "roberto up blue +3", "nick up blue +1")
    (report,) = TRACKER.query(state, "roles")
    assert report.rows[3][:4] == (
        "blue",
        "giorgio 3, nick 1, roberto 3, marco 3",
        "giorgio or roberto or marco",
        "-",
    )
    state, _ = TRACKER.apply(state, "round roles")
    with pytest.raises(IllegalMoveError, match="only giorgio, roberto, marco may bid"):
        TRACKER.apply(state, "nick takes blue major for 1")
    state, _ = TRACKER.apply(state, "roberto takes blue major for 1")
    # « Andrea gagne la tuile du Rôle Majeur bleu grâce à 3 cartes ... Il doit en retourner 2 »
    assert (state.seats["roberto"].up["blue"], state.seats["roberto"].down["blue"]) == (1, 2)
    state, _ = TRACKER.apply(state, "roberto shield green")
    assert state.roles_done
    assert state.roles.get("blue minor") is None


def test_role_auction_with_no_bid_leaves_the_tile() -> None:
    # « Si tout le monde passe (pas d'enchère) la tuile de Rôle reste sur le plateau de jeu. »
    state = table(PHASE4, "giorgio up red +2", "nick up red +2", "giorgio hand +1")
    state, _ = TRACKER.apply(state, "round roles")
    state, _ = TRACKER.apply(state, "nobody takes red major")
    assert state.roles_done
    assert state.roles.get("red major") is None
    assert state.seats["giorgio"].hand_size == 1  # no red effect for anyone


def test_role_effects_in_colour_order_green_turns_a_card_up_before_white_is_counted() -> None:
    # Green: « Le joueur peut retourner l'une de ses cartes non-verte face visible »; the colours go
    # « Dans l'ordre des couleurs (vert, blanc, rouge, bleu et jaune) », so the white card turned
    # up by the master counts for the white majority.
    state = table(
        ("ann", "ben", "cat"),
        "ann up green +1",
        "ann down white +1",
        "ben up white +1",
        "cat up yellow +1",
        "cat up red +1",
    )
    state, _ = TRACKER.apply(state, "round roles")
    with pytest.raises(IllegalMoveError, match="a card of any colour but green"):
        TRACKER.apply(state, "ann turns up green")
    state, _ = TRACKER.apply(state, "ann turns up white")
    # White is now tied ann 1, ben 1: case c.
    assert state.steps[0].role == "white major"
    assert state.steps[0].players == ("ann", "ben")
    state, _ = TRACKER.apply(state, "ben takes bishop for 0")
    assert state.seats["ben"].vp == 1  # « Le joueur gagne 1 point de victoire »
    assert state.seats["cat"].hand_size == 1  # red: « tire 1 carte Bâtiment »
    assert state.seats["cat"].ducats == 7  # yellow: « gagne 2 pièces de monnaie »
    assert state.roles_done


def test_two_players_have_no_minor_roles() -> None:
    # « Règles spéciales pour 2 joueurs: ... Toutes les tuiles des Roles Mineurs »
    state = table(("ann", "ben"), "ann up red +3", "ben up red +1")
    state, _ = TRACKER.apply(state, "round roles")
    assert state.roles == {"red major": "ann"}
    with pytest.raises(IllegalMoveError, match="no minor roles with 2 players"):
        TRACKER.apply(state, "ben holds red minor")


# --- other final points ----------------------------------------------------------------------------
def test_set_bonus_two_per_card_of_the_scarcest_colour_face_up_or_down() -> None:
    # Text 1: « 2 PVs pour chaque carte Bâtiment posée devant lui de la couleur dans laquelle il a le
    # moins de cartes ... face visible ou cachée »; text 2: « 2 points de victoire pour chaque lot
    # de 5 cartes Bâtiment de couleurs différentes ». Both give 2 x 2 here.
    state = table(
        ("ann", "ben"),
        "ann up green +3",
        "ann up white +1",
        "ann down white +1",
        "ann up red +2",
        "ann down blue +4",
        "ann up yellow +5",
        "ben up green +9",
        "ben up white +9",
        "ben up red +9",
        "ben up blue +9",
    )
    assert scoring.sets(state, "ann") == 4
    assert scoring.sets(state, "ben") == 0  # no yellow: no complete set


def test_most_ducats_and_most_cards_in_hand_shared_on_a_tie() -> None:
    # « 2 PVs pour le joueur qui possède le plus de pièces ... (en cas d'égalité, tous les joueurs
    # concernés gagnent 2 PVs) »; the same for « le plus de cartes Bâtiment encore dans sa main ».
    state = table(("ann", "ben", "cat"), "ann ducats +3", "ben ducats +3", "cat hand +2", "ann hand +1")
    rows = scoring.breakdown(state)
    assert [rows[name]["most ducats"] for name in ("ann", "ben", "cat")] == [2, 2, 0]
    assert [rows[name]["most cards in hand"] for name in ("ann", "ben", "cat")] == [0, 0, 2]


def test_roles_held_at_the_end() -> None:
    # « 2 PVs pour chaque Rôle Majeur contrôlé ... 1 PV pour chaque Rôle Mineur »
    state = table(("ann", "ben", "cat"), "ann holds master", "ann holds red minor", "ben holds banker")
    rows = scoring.breakdown(state)
    assert [rows[name]["roles"] for name in ("ann", "ben", "cat")] == [3, 2, 0]


# --- tie-breaks ------------------------------------------------------------------------------------
def winner(state: Table) -> tuple[list[str], list[str]]:
    return scoring.winners(state, scoring.breakdown(state))


def test_tie_goes_to_most_building_cards_played() -> None:
    # « celui qui a joué le plus de cartes Bâtiment l'emporte » (face down cards were played too)
    state = table(("ann", "ben", "cat"), "ann vp +5", "ben vp +5", "ann up red +1", "ben down red +2")
    won, used = winner(state)
    assert won == ["ben"]
    assert "most building cards played (2)" in used[0]


def test_then_the_first_major_role_in_colour_order() -> None:
    # « le vainqueur est celui qui contrôle le Rôle Majeur le plus important selon l'ordre des
    # couleurs (vert, blanc, rouge, bleu et jaune) ». Roles score 2 each, so both hold one.
    state = table(
        ("ann", "ben"), "ann holds yellow major", "ben holds red major", "ann hand +1", "ben hand +1"
    )
    won, used = winner(state)
    assert won == ["ben"]
    assert "red major" in used[-1]
    (report, _) = TRACKER.score(state)
    assert report.notes[-1] == "winner: ben"


def test_still_tied_without_major_roles_is_shared() -> None:
    state = table(("ann", "ben", "cat"), "ann vp +3", "ben vp +3")
    won, used = winner(state)
    assert won == ["ann", "ben"]
    assert "no further tie-break" in used[-1]
    (report, _) = TRACKER.score(state)
    assert report.notes[-1] == "shared win: ann, ben"


def test_most_cards_in_hand_when_nobody_holds_any_is_a_tie_of_all() -> None:
    # Read as written: « en cas d'égalité, tous les joueurs concernés gagnent 2 PVs ».
    assert scoring.most({"ann": 0, "ben": 0}, 2) == {"ann": 2, "ben": 2}
