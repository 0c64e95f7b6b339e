"""Princes of Florence by email: the rules of seed 001, each as a test, and each kind of illegal move
refused in one line. The rules text is quoted beside each test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.engine.play import playable
from pbem.errors import IllegalMoveError, MoveSyntaxError
from pbem.games.princes_of_florence import rounds
from pbem.games.princes_of_florence.rules import RULES
from pbem.games.princes_of_florence.scoring import breakdown, winners
from pbem.games.princes_of_florence.state import ACTIONS, AUCTION, PLACE, Game
from pbem.kit.dealer import Dealer
from pbem.kit.seats import FollowUp
from pbem.kit.stand_in import Defaults
from tests.games.princes_of_florence.support import COMPONENTS, deal, dealer_for, new_game

SEATS = ("anna", "bruno", "carla")


def started(
    seats: tuple[str, ...] = SEATS, unofficial: bool = False, seed: int = 5
) -> tuple[Game, Dealer[Game]]:
    game = new_game(seats, unofficial)
    dealer = dealer_for(game, seed)
    return deal(game, dealer), dealer


def to_actions(game: Game, dealer: Dealer[Game]) -> Game:
    """Everyone leaves the round's auctions without a lot."""
    while game.phase == AUCTION:
        game = dealer.play(game, RULES.demands(game)[0].seat, "pass")
    return game


def refused(game: Game, dealer: Dealer[Game], seat: str, text: str, words: str) -> None:
    with pytest.raises(IllegalMoveError, match=words) as caught:
        dealer.play(game, seat, text)
    assert "\n" not in str(caught.value)


def test_setup_deals_four_and_keeps_three() -> None:
    """ "3500 флоринов"; "Каждому игроку сдается по 4 карты ... выбирает из них три ... оставшуюся
    карту сбрасывает обратно в колоду. Колода вновь перемешивается"; "Число маркеров свободы каждого
    типа ... равно количеству игроков минус 1"."""
    game = new_game(SEATS)
    dealer = dealer_for(game, 1)
    game = dealer.settle(game)
    assert RULES.phase(game) == "deal"
    assert sorted(d.seat for d in RULES.demands(game)) == sorted(SEATS)
    assert all(len(game.player(seat).hand) == 4 for seat in SEATS)
    assert game.decks["profession"] == 21 - 12
    with pytest.raises(IllegalMoveError, match="was not dealt"):
        RULES.check(game, "anna", RULES.parse(f"return {game.player('bruno').hand[0]}"))
    refused(game, dealer, "anna", "pass", "returns one of the four")
    assert RULES.default_move(game, "anna", "the deal") == RULES.parse(
        f"return {game.player('anna').hand[-1]}"
    )
    game = deal(game, dealer)
    assert all(len(game.player(seat).hand) == 3 for seat in SEATS)
    assert all(game.player(seat).florins == 3500 for seat in SEATS)
    assert game.decks["profession"] == 21 - 9
    assert game.supply["freedom:travel"] == 2
    assert game.phase == AUCTION and game.round == 1


def test_auction_turns_opening_and_raises() -> None:
    """ "автоматически начинает аукцион со ставкой 200 флоринов"; "Все повышения цены лота происходят
    ровно на 100 флоринов"; "Спасовавший игрок более не может принимать участие в торгах"."""
    game, dealer = started()
    refused(game, dealer, "bruno", "auction jester", "it is not bruno's turn: anna to move")
    game = dealer.play(game, "anna", "auction jester")
    assert game.auction is not None and game.auction.price == 200 and game.auction.turn == "bruno"
    refused(game, dealer, "bruno", "bid 250", "the next bid for the jester is 300")
    refused(game, dealer, "bruno", "bid 400", "every bid raises the last by exactly 100")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "bid 300")
    game = dealer.play(game, "anna", "bid 400")
    refused(game, dealer, "bruno", "bid 500", "bruno passed on this jester")
    game = dealer.play(game, "carla", "pass")
    # anna won at 400 and put the lot up herself: the next player to her left puts up the next lot
    assert game.player("anna").florins == 3100 and game.player("anna").jesters == 1
    assert game.auction is None and game.nominator == "bruno"
    refused(game, dealer, "anna", "bid 500", "no lot is being bid for")
    refused(game, dealer, "bruno", "auction jester", "a jester was sold this round")
    refused(game, dealer, "anna", "auction lake", "it is not anna's turn")


def test_the_nominator_who_loses_puts_up_again_and_the_last_player_buys() -> None:
    """ "Если первый игрок не стал победителем торгов, то он снова выбирает новый объект"; the last
    player "может просто заплатить в банк 200 флоринов и взять один из доступных объектов"."""
    game, dealer = started()
    game = dealer.play(game, "anna", "auction builder")
    game = dealer.play(game, "bruno", "bid 300")
    game = dealer.play(game, "carla", "pass")
    game = dealer.play(game, "anna", "pass")
    assert game.player("bruno").builders == 1 and game.nominator == "anna"
    game = dealer.play(game, "anna", "auction recruitment")
    game = dealer.play(game, "carla", "pass")
    assert game.player("anna").recruitment == 1
    assert rounds.last_player(game) and RULES.demands(game)[0].seat == "carla"
    refused(game, dealer, "carla", "auction jester", "last player")
    refused(game, dealer, "carla", "buy builder", "a builder was sold this round")
    game = dealer.play(game, "carla", "buy jester")
    assert game.player("carla").florins == 3300 and game.phase == ACTIONS and game.turn == "anna"


def test_builders_at_most_three() -> None:
    """ "за исключением маркеров строителей (их не может быть в поместье более трех)"."""
    game, dealer = started()
    game = game.with_player(replace(game.player("anna"), builders=3))
    refused(game, dealer, "anna", "auction builder", "anna has 3 builders")
    game = dealer.play(game, "anna", "auction jester")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    assert "buy builder" not in RULES.legal_moves(game, "bruno")
    game = dealer.play(game, "bruno", "auction builder")
    refused(game, dealer, "anna", "bid 300", "anna won a lot this round")


def test_a_landscape_is_placed_at_once_and_repeats_give_prestige() -> None:
    """ "он немедленно располагает его в своем поместье"; "Нельзя, что бы здание или ландшафт выходили
    за пределы сетки"; "внахлест"; "второй лес ... 3 очка престижа"."""
    game, dealer = started()
    game = dealer.play(game, "anna", "auction forest")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    assert RULES.demands(game)[0].seat == "anna"
    refused(game, dealer, "bruno", "auction lake", "bruno's turn|anna must first finish")
    refused(game, dealer, "anna", "place forest at g7", "reach off the estate")
    refused(game, dealer, "anna", "place forest at b2", "where the palace is")
    refused(game, dealer, "anna", "place lake at d4", "places the forest won")
    game = dealer.play(game, "anna", "place forest at d1")
    assert game.player("anna").estate.landscapes == ("forest",)
    assert game.player("anna").points == 0
    assert game.supply["forest"] == 5
    second = game.with_player(
        replace(game.player("anna"), bought="", out=False),
    )
    second = replace(second, follow_ups=(FollowUp("anna", PLACE, "forest"),))
    second = dealer.play(second, "anna", "place forest at f1")
    assert second.player("anna").points == 3


def test_action_limits() -> None:
    """ "Каждый игрок совершает по 2 действия"; a profession card and a freedom "только раз за
    раунд"; "Игрок может лишь раз обеспечить в своем поместье свободу каждого типа"."""
    game, dealer = started()
    game = to_actions(game, dealer)
    refused(game, dealer, "bruno", "freedom travel", "it is not bruno's turn: anna")
    game = dealer.play(game, "anna", "freedom travel")
    assert game.player("anna").florins == 3200
    refused(game, dealer, "anna", "freedom religion", "already took a freedom this round")
    game = dealer.play(game, "anna", "take profession")
    assert RULES.phase(game) == "round 1 actions: keep"
    keep = RULES.legal_moves(game, "anna")
    assert len(keep) == 5 * 24
    token = game.follow_ups[0].tokens[2]
    refused(game, dealer, "anna", f"keep {token} under {token}", "'under' lists the other cards")
    game = dealer.play(game, "anna", f"keep {token}")
    assert token in game.player("anna").hand and game.turn == "bruno"
    assert token not in dealer.piles["profession"]
    refused(game, dealer, "anna", "take bonus", "it is not anna's turn")
    game = dealer.play(game, "bruno", "take profession")
    game = dealer.play(game, "bruno", f"keep {game.follow_ups[0].tokens[0]}")
    refused(game, dealer, "bruno", "take profession", "already took a profession this round")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    # round 2: anna already has the travel freedom
    game = to_actions(game, dealer)
    assert game.turn == "bruno" and game.round == 2
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    refused(game, dealer, "anna", "freedom travel", "has travel freedom already")
    game = dealer.play(game, "anna", "take bonus")
    game = dealer.play(game, "anna", f"keep {game.follow_ups[0].tokens[0]}")
    game = dealer.play(game, "anna", "take bonus")
    game = dealer.play(game, "anna", f"keep {game.follow_ups[0].tokens[0]}")
    assert game.round == 3  # a third action is never asked for: the turn moved on


def test_buildings_placement_and_cost() -> None:
    """ "платит в банк 700 флоринов ... одного или двух строителей ... 300 ... 3 строителей ...
    бесплатно"; "При строительстве здания игрок немедленно получает 3 очка престижа"; "только одно
    здание одного типа"; "Здания могут касаться друг друга только углами. Это правило так же
    применимо и к дворцу"."""
    game, dealer = started()
    game = to_actions(game, dealer)
    refused(game, dealer, "anna", "build theatre at e7 rot 0", "reach off the estate")
    refused(game, dealer, "anna", "build theatre at a3", "touch the palace along a side")
    refused(game, dealer, "anna", "build theatre at a2", "where the palace is")
    refused(game, dealer, "anna", "build castle at d4", "no building 'castle'")
    game = dealer.play(game, "anna", "build theatre at a4 rot 0")
    assert game.player("anna").florins == 2800 and game.player("anna").points == 3
    refused(game, dealer, "anna", "build theatre at a6 rot 0", "has a theatre already")
    refused(game, dealer, "anna", "build tower at b5 rot 0", "touch the theatre")
    refused(game, dealer, "anna", "build tower at a4 rot 0", "where the theatre is")
    rich = game.with_player(replace(game.player("anna"), builders=2))
    rich = dealer.play(rich, "anna", "build tower at a5 rot 0")
    assert rich.player("anna").florins == 2500
    free = game.with_player(replace(game.player("anna"), builders=3))
    assert dealer.play(free, "anna", "build tower at a6 rot 0").player("anna").florins == 2800
    with pytest.raises(MoveSyntaxError):
        RULES.parse("build tower at z9")


def _work_ready(seed: int = 5) -> tuple[Game, Dealer[Game], dict[str, str]]:
    game, dealer = started(seed=seed)
    game = to_actions(game, dealer)
    return game, dealer, dealer.hand(game, "anna")


def test_works_minimum_payment_and_bonus_cards() -> None:
    """ "Ценность шедевра обязательно должна равняться или превосходить минимальную ценность";
    "Банк платит 100 флоринов за каждый WP ... 1 очко престижа стоит 200 флоринов"; "Каждой картой
    бонуса игрок может играть лишь раз"."""
    game, dealer, hand = _work_ready()
    token, name = min(hand.items(), key=lambda held: held[1])
    # three cards in hand: 3 WP, below round 1's minimum of 7
    refused(game, dealer, "anna", f"work {token}", "worth 3 WP, below round 1's minimum 7")
    refused(game, dealer, "anna", f"work {token} bonus:3", "anna holds no bonus card")
    jesters = game.with_player(replace(game.player("anna"), jesters=2, bonus=("bonus:10", "bonus:11")))
    assert dealer.cards["bonus:10"] == "jesters"
    refused(jesters, dealer, "anna", f"work {token} bonus:10 bonus:10", "played twice in one work")
    done = dealer.play(jesters, "anna", f"work {token} bonus:10")
    # 3 cards + 2 jesters (4) + the jesters card (2 per jester: 4) = 11
    assert done.player("anna").works[-1].value == 11
    assert done.player("anna").florins == 3500 + 1100
    assert done.player("anna").played_bonus == ("jesters",)
    assert RULES.legal_moves(done, "anna") == [f"prestige {k}" for k in range(6)]
    refused(done, dealer, "anna", "prestige 6", "at most 5 prestige")
    refused(done, dealer, "anna", "freedom travel", "anna must first finish")
    paid = dealer.play(done, "anna", "prestige 2")
    assert paid.player("anna").florins == 3500 + 1100 - 400
    assert paid.player("anna").points == 2
    refused(paid, dealer, "anna", f"work {token}", "holds no " + name)


def test_best_work_of_the_round_ties_share() -> None:
    """ "Если несколько игроков создали равные по ценности шедевры, они все получают по 3 очка
    престижа"; nobody when no work was made."""
    game, dealer = started()
    game = to_actions(game, dealer)
    for seat in SEATS:
        game = game.with_player(replace(game.player(seat), jesters=2))
    anna = sorted(dealer.hand(game, "anna"))[0]
    bruno = sorted(dealer.hand(game, "bruno"))[0]
    game = dealer.play(game, "anna", f"work {anna}")
    game = dealer.play(game, "anna", "prestige 0")
    game = dealer.play(game, "anna", "pass")
    game = dealer.play(game, "bruno", f"work {bruno}")
    game = dealer.play(game, "bruno", "prestige 0")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    assert game.best == ((7, ("anna", "bruno")),)
    assert [game.player(s).points for s in SEATS] == [3, 3, 0]
    assert game.first == "bruno" and game.round == 2


def test_recruitment_takes_a_card_laid_out_by_an_opponent() -> None:
    """ "выбирает одну карту профессии, лежащую в раскрытом виде у поместья оппонента, берет ее в
    свою руку"."""
    game, dealer = started()
    game = to_actions(game, dealer)
    game = game.with_player(replace(game.player("anna"), jesters=2))
    token = sorted(dealer.hand(game, "anna"))[0]
    game = dealer.play(game, "anna", f"work {token}")
    game = dealer.play(game, "anna", "prestige 0")
    name = game.name(token)
    game = game.with_player(replace(game.player("anna"), actions=()))
    refused(game, dealer, "anna", f"recruit {name} from bruno", "holds no recruitment card")
    with_card = game.with_player(replace(game.player("anna"), recruitment=1))
    refused(with_card, dealer, "anna", f"recruit {name} from anna", "laid out by an opponent's estate")
    game = dealer.play(game, "anna", "pass")
    game = game.with_player(replace(game.player("bruno"), recruitment=1))
    refused(game, dealer, "bruno", f"recruit {name} from carla", "does not lie face up by carla's")
    game = dealer.play(game, "bruno", f"recruit {name} from anna")
    assert token in game.player("bruno").hand and game.player("anna").laid == ()
    assert game.player("bruno").recruited == 1 and game.player("bruno").actions == ()


def test_a_player_makes_one_work_with_each_profession_card() -> None:
    """ "Карта остается лежать открытой на столе и данный игрок не может вновь создать шедевр с
    помощью данного артиста или ученого. Однако другой игрок может с помощью карты найма переманить
    открытого артиста или ученого и создать с помощью его шедевр в своем поместье." """
    game, dealer = started()
    game = to_actions(game, dealer)
    for seat in SEATS:
        game = game.with_player(replace(game.player(seat), jesters=3, recruitment=1))
    token = sorted(dealer.hand(game, "anna"))[0]
    name = dealer.cards[token]
    game = dealer.play(game, "anna", f"work {token}")
    game = dealer.play(game, "anna", "prestige 0")
    game = dealer.play(game, "anna", "pass")
    game = dealer.play(game, "bruno", f"recruit {name} from anna")
    game = dealer.play(game, "bruno", f"work {token}")  # another player may
    game = dealer.play(game, "bruno", "prestige 0")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    game = to_actions(game, dealer)  # round 2: bruno, carla, then anna
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    game = dealer.play(game, "anna", f"recruit {name} from bruno")
    assert token in game.player("anna").hand and game.turn == "anna"
    # 4 cards in hand and laid out, 2 recruitment cards laid out, 3 jesters: 12 WP, above 9
    refused(game, dealer, "anna", f"work {token}", f"anna has already made a work with the {name}, and a")
    hand = {t: dealer.cards[t] for t in game.player("anna").hand if t not in game.shown}
    offered = playable(RULES, game, "anna", RULES.legal_moves(game, "anna"), hand)
    assert offered and not [text for text in offered if text.startswith(f"work {token}")]


def test_two_player_unofficial_prices_and_face_up_professions() -> None:
    """Unofficial rules for 2: prestige cards, recruitment cards and builders open at 500; jesters at
    700 in rounds 1-4; "Каждый раунд, начиная с третьего, одна верхняя карта профессии ...
    кладется на стол"; "только один тип ландшафта может быть выставлен на аукцион"."""
    game, dealer = started(("anna", "bruno"), unofficial=True)
    assert rounds.price(game, "builder") == 500 and rounds.price(game, "jester") == 700
    refused(game, dealer, "anna", "auction forest", "'auction landscape'")
    game = dealer.play(game, "anna", "auction landscape")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "anna", "place park at d1")
    assert game.player("anna").estate.landscapes == ("park",)
    game = dealer.play(game, "bruno", "pass")
    refused(game, dealer, "anna", "take profession", "no profession card lies face up")
    game = dealer.play(game, "anna", "pass")
    game = dealer.play(game, "bruno", "pass")
    game = to_actions(game, dealer)
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "anna", "pass")
    assert game.round == 3 and len(game.face_up) == 1
    game = to_actions(game, dealer)
    name = game.name(game.face_up[0])
    assert RULES.legal_moves(game, game.turn).count(f"take profession {name}") == 1
    refused(
        game,
        dealer,
        game.turn,
        "take profession poet" if name != "poet" else "take profession doctor",
        "take one of",
    )
    game = dealer.play(game, game.turn, f"take profession {name}")
    assert game.face_up == () and game.professions_taken == 1


def test_two_players_the_last_player_takes_a_lot_alone_for_200() -> None:
    """The last player "может просто заплатить в банк 200 флоринов и взять один из доступных
    объектов": 200 for any lot, even where the unofficial rules for 2 raise the "стартовая цена"
    (the bid an auction opens with) to 500 for a builder and 700 for a jester in rounds 1-4."""
    game, dealer = started(("anna", "bruno"), unofficial=True)
    game = dealer.play(game, "anna", "auction builder")
    game = dealer.play(game, "bruno", "pass")
    assert game.player("anna").florins == 3500 - 500
    assert rounds.last_player(game) and "buy jester" in RULES.legal_moves(game, "bruno")
    refused(game, dealer, "bruno", "buy builder", "a builder was sold this round")
    bought = dealer.play(game, "bruno", "buy jester")
    assert bought.player("bruno").jesters == 1 and bought.player("bruno").florins == 3500 - 200
    poor = game.with_player(replace(game.player("bruno"), florins=100))
    refused(poor, dealer, "bruno", "buy jester", "the last player pays 200 florins")


def test_a_profession_turned_up_is_taken_only_once_everyone_can_read_it() -> None:
    """The card dealt face up at the start of round 3 opens once every player's decryption share is
    in (``card_revealed``); until then nobody can name it, so it is neither listed (as its token,
    which no move reads) nor taken."""
    game, dealer = started(("anna", "bruno"), unofficial=True)
    while game.round < 3:
        game = to_actions(game, dealer)
        while game.phase == ACTIONS:
            game = dealer.play(game, game.turn, "pass")
    game = to_actions(game, dealer)
    (token,) = game.face_up
    unread = replace(game, shown={key: card for key, card in game.shown.items() if key != token})
    listed = RULES.legal_moves(unread, unread.turn)
    assert [RULES.format(RULES.parse(text)) for text in listed] == listed
    assert not [text for text in listed if text.startswith("take profession")]
    with pytest.raises(IllegalMoveError, match="waits for every player's share"):
        RULES.check(unread, unread.turn, RULES.parse(f"take profession {game.shown[token]}"))
    shown = RULES.card_revealed(unread, token, game.shown[token])
    assert f"take profession {game.shown[token]}" in RULES.legal_moves(shown, shown.turn)


def test_end_of_game_reveal_and_tie_break() -> None:
    """ "Игроки открывают свои карты престижа"; most prestige wins, then "игрок, имеющий наибольшую
    сумму денег"; players still tied share the win."""
    game, dealer = started()
    game = dealer.play(game, "anna", "auction prestige-card")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    drawn = game.follow_ups[0].tokens
    assert len(drawn) == 5
    game = dealer.play(game, "anna", f"keep {drawn[0]} under {' '.join(reversed(drawn[1:]))}")
    assert dealer.piles["prestige"][-4:] == list(reversed(drawn[1:]))
    while game.phase != "reveal":
        seat = RULES.demands(game)[0].seat
        game = dealer.play(game, seat, "pass")
    assert RULES.demands(game)[0].seat == "anna"
    refused(game, dealer, "anna", f"reveal {drawn[1]}", "holds no prestige card")
    game = dealer.play(game, "anna", f"reveal {drawn[0]}")
    assert game.phase == "over"
    score = breakdown(game)
    assert set(score["anna"]) >= {"prestige cards", "total", "florins"}
    rows = {
        "a": {"total": 5, "florins": 10},
        "b": {"total": 5, "florins": 30},
        "c": {"total": 4, "florins": 90},
    }
    assert winners(rows) == ["b"]
    rows["a"]["florins"] = 30
    assert winners(rows) == ["a", "b"]


def test_selling_prestige_and_syntax() -> None:
    """ "За каждое потерянное очко престижа игрок получает 100 флоринов"."""
    game, dealer = started()
    game = game.with_player(replace(game.player("bruno")).gain("buildings", 3))
    assert RULES.is_free(RULES.parse("sell prestige 2"))
    refused(game, dealer, "bruno", "sell prestige 4", "has 3 prestige")
    game = dealer.play(game, "bruno", "sell prestige 2")
    assert game.player("bruno").florins == 3700 and game.player("bruno").points == 1
    for text in ("bid", "auction castle", "work bonus:1", "keep profession:1 under", "fly"):
        with pytest.raises(MoveSyntaxError) as caught:
            RULES.parse(text)
        assert "\n" not in str(caught.value)


def test_defaults_for_missed_deadlines() -> None:
    """A late player passes in an auction and in the action phase; what must be done is done."""
    game, dealer = started()
    assert RULES.default_move(game, "anna", "") == RULES.parse("pass")
    assert RULES.default_move(game, "bruno", "") is None
    game = dealer.play(game, "anna", "auction lake")
    game = dealer.play(game, "bruno", "pass")
    game = dealer.play(game, "carla", "pass")
    default = RULES.default_move(game, "anna", "")
    assert default is not None
    assert RULES.format(default).startswith("place lake at")
    dealer.play(game, "anna", RULES.format(default))


def test_two_players_the_last_player_pays_the_variants_price_in_new_games() -> None:
    """The unofficial rules for 2: "Во время аукциона стартовая цена за карту престижа, карту найма
    или маркер строителя всегда 500 флоринов. Стартовая цена за шута в раунды с первого по
    четвертый всегда 700 флоринов, в раунды с пятого по седьмой 300 флоринов". "Всегда": with
    variant_last_price (new games) the last player, who takes a lot alone, pays those prices too,
    and 200 for a landscape, which they do not price. A game made before the option pays 200
    (test_two_players_the_last_player_takes_a_lot_alone_for_200)."""
    game, dealer = started(("anna", "bruno"), unofficial=True)
    game = replace(game, variant_last=True)
    game = dealer.play(game, "anna", "auction builder")
    game = dealer.play(game, "bruno", "pass")
    assert rounds.last_player(game)
    assert "jester 700" in RULES.demands(game)[0].prompt and "landscape 200" in RULES.demands(game)[0].prompt
    bought = dealer.play(game, "bruno", "buy jester")
    assert bought.player("bruno").jesters == 1 and bought.player("bruno").florins == 3500 - 700
    card = dealer.play(game, "bruno", "buy prestige-card")
    assert card.player("bruno").florins == 3500 - 500
    landscape = dealer.play(game, "bruno", "buy landscape")
    assert landscape.player("bruno").florins == 3500 - 200
    poor = game.with_player(replace(game.player("bruno"), florins=600))
    refused(poor, dealer, "bruno", "buy jester", "the last player pays 700 florins for a jester")
    late = replace(game, round=5)
    assert dealer.play(late, "bruno", "buy jester").player("bruno").florins == 3500 - 300
    # with 3 players the rules give no prices: the last player pays 200
    three, dealer3 = started(("anna", "bruno", "carla"), unofficial=True)
    three = replace(three, variant_last=True)
    three = dealer3.play(three, "anna", "auction builder")
    three = dealer3.play(dealer3.play(three, "bruno", "pass"), "carla", "pass")
    three = dealer3.play(dealer3.play(three, "bruno", "auction jester"), "carla", "pass")
    assert rounds.last_player(three) and three.player("carla").florins == 3500
    assert dealer3.play(three, "carla", "buy recruitment").player("carla").florins == 3500 - 200


def test_a_new_two_player_game_takes_the_option_from_its_genesis() -> None:
    options = {"unofficial_rules": True, "deadline_days": 0, "variant_last_price": True}
    assert RULES.setup(("anna", "bruno"), "standard", options, COMPONENTS).variant_last
    assert not RULES.setup(
        ("anna", "bruno"), "standard", {**options, "variant_last_price": False}, COMPONENTS
    ).variant_last


def test_a_late_players_landscape_goes_where_the_shared_randomness_says() -> None:
    """ "немедленно располагает его": a late player's landscape, with default_places=chance, goes
    on a square picked by the value the engine gives among those it fits, the same for the same
    value, a legal move every time; a game made before the option takes the first."""
    game, dealer = started()
    game = dealer.play(game, "anna", "auction lake")
    game = dealer.play(dealer.play(game, "bruno", "pass"), "carla", "pass")
    first = RULES.default_move(game, "anna", "")
    assert RULES.played_by_defaults(game, (), b"x" * 32) is game
    chancy = replace(game, defaults=Defaults.of({"default_places": "chance"}))
    placed = set()
    for value in range(30):
        told = RULES.played_by_defaults(chancy, (), value.to_bytes(32, "big"))
        move = RULES.default_move(told, "anna", "round 1")
        assert move is not None and move == RULES.default_move(told, "anna", "round 1")
        RULES.check(told, "anna", move)
        placed.add(RULES.format(move))
    assert len(placed) > 5 and RULES.format(first) in RULES.legal_moves(game, "anna")  # type: ignore[arg-type]


def test_a_retired_player_ranks_last_for_every_most_and_fewest_card() -> None:
    """ "Если при проверке выполнения условия, игрок делит с другим участником игры первенство ...
    получает лишь половину": with retired=compete-none a player the defaults play at the end
    ranks last, so the lead (or its half) is the others'; a card whose condition compares
    nothing still scores for it."""
    from pbem.games.princes_of_florence.components import PrestigeCard
    from pbem.games.princes_of_florence.prestige import card_points
    from pbem.games.princes_of_florence.table.state import Estate

    most = PrestigeCard(7, 4, "most")
    estates = {name: Estate(florins=0) for name in ("anna", "bruno", "carla")}
    estates["carla"].jesters, estates["anna"].jesters, estates["bruno"].jesters = 3, 2, 2
    assert card_points("most-jesters", most, estates) == {"anna": 0, "bruno": 0, "carla": 7}
    assert card_points("most-jesters", most, estates, ("carla",)) == {"anna": 4, "bruno": 4, "carla": 0}
    estates["anna"].jesters = 1
    assert card_points("most-jesters", most, estates, ("carla",)) == {"anna": 0, "bruno": 7, "carla": 0}
    estates["carla"].empty, estates["anna"].empty, estates["bruno"].empty = 3, 5, 9
    assert card_points("fewest-empty", most, estates, ("carla",)) == {"anna": 7, "bruno": 0, "carla": 0}
    for estate in estates.values():
        estate.landscapes = {"forest": 1, "lake": 1, "park": 1}
    assert card_points("all-landscapes", PrestigeCard(8, None, "all"), estates, ("carla",))["carla"] == 8
    assert card_points("most-jesters", most, estates, ("anna", "bruno", "carla")) == dict.fromkeys(estates, 0)
