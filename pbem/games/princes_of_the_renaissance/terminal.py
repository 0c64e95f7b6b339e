"""A Princes of the Renaissance view as text: the players, the sealed steps, the cities and what is
on offer, the war and the auction under way, the score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.engine.json_shape import words
from pbem.render.generic import sealed_lines
from pbem.render.grid import print_grid


def render(title: str, view: Mapping[str, Any], private: Mapping[str, str]) -> None:
    from pbem.render import console as new_console

    console = new_console()
    console.print(f"[bold]{title}[/bold] ({view.get('edition', '')}) — {view['phase']}")
    _players(console, view)
    for line in sealed_lines(view):
        console.print(line)
    for step, value in private.items():
        console.print(f"[bold]your sealed {step}:[/bold] {value} (only you can see this)")
    if "cities" in view:
        _board(console, view)
    if "score" in view:
        _score(console, view)
    events = view.get("events", [])
    if events:
        console.print("[bold]so far:[/bold]")
        for event in events[-12:] if "cities" in view else events:
            console.print(f"  {event}")


def _players(console: Any, view: Mapping[str, Any]) -> None:
    order = view.get("turn_order", [])
    decades = "decade" in view and "city_tiles" in next(iter(view["players"].values()), {})
    columns = ["seat", "family", "gold", "influence"]
    columns += ["City tiles", "troops", "events", "cards", "wins"] if decades else ["bid", "turn"]
    rows: list[list[str]] = []
    for seat, player in view["players"].items():
        row = [
            seat,
            str(player.get("family") or "-"),
            str(player.get("gold", "")),
            str(player.get("influence", "")),
        ]
        if decades:
            face_up = player.get("treachery_face_up")
            cards = f"{player['treachery_cards']}/{player['hand_limit']}"
            row += [
                ", ".join(tile["name"] for tile in player["city_tiles"]) or "-",
                ", ".join(player["troops"]) or "-",
                ", ".join(player["event_tiles"]) or "-",
                cards + (f" (face up: {', '.join(face_up)})" if face_up else ""),
                str(player["war_victories"]),
            ]
        else:
            bid = player.get("bid")
            row += [
                "-" if bid is None else str(bid) + (" (passed)" if player.get("passed") else ""),
                str(order.index(seat) + 1) if seat in order else "-",
            ]
        rows.append(row)
    print_grid(console, columns, rows)
    if decades and order:
        console.print(f"turn order: {', '.join(order)}; to act: {view.get('active') or '-'}")


def _board(console: Any, view: Mapping[str, Any]) -> None:
    cities = [
        [city["name"], str(city["status"]), str(city["artists"]), str(city["vp"])]
        for city in view["cities"].values()
    ]
    print_grid(console, ("city", "status", "artists", "VP per tile"), cities, title="cities")
    offer: list[list[str]] = []
    for tile in view.get("city_tiles_on_offer", []):
        income = f"{tile['gold']} gold, {tile['influence']} influence"
        power = f"; {tile['power']}" if tile["power"] else ""
        offer.append([tile["id"], f"{tile['name']} ({tile['city']})", income + power, "gold"])
    for event in view.get("event_tiles_on_offer", []):
        offer.append([event["id"], event["name"], f"{event['kind']} {event['value']:+d}", event["currency"]])
    if view["pope"]["on_offer"]:
        offer.append(["pope", "the Pope", "+3 gold a decade; 3 VP at the end", "influence"])
    if offer:
        print_grid(console, ("tile", "what", "income / effect", "bid in"), offer, title="on offer")
    troops = [
        [
            troop["id"],
            troop["name"],
            f"{troop['cost']} gold",
            f"{troop['attack']}/{troop['defence']}",
            str(troop["left"]),
        ]
        for troop in view.get("troops_for_sale", [])
    ]
    if troops:
        print_grid(console, ("troop", "what", "price", "attack/defence", "left"), troops, title="Troop tiles")
    pope = view["pope"]["holder"]
    pope_text = pope or ("on offer" if view["pope"]["on_offer"] else "nobody")
    console.print(
        f"Pope: {pope_text}; Treachery deck: {view['treachery_deck']} cards; "
        f"wars fought this decade: {view['wars_fought']} of {view['war_limit']}"
    )
    if view.get("treachery_discards") or view.get("treachery_discarded_face_down"):
        console.print(
            f"Treachery cards played: {', '.join(view['treachery_discards']) or '-'}; "
            f"discarded face down: {view['treachery_discarded_face_down']}"
        )
    war = view.get("war")
    if war:
        attacker = f"{war['attacker']} (condottiere: {war['attacker_condottiere'] or '-'})"
        defender = f"{war['defender']} (condottiere: {war['defender_condottiere'] or '-'})"
        sides = f"{attacker} attacks {defender}"
        console.print(
            f"[bold]war:[/bold] {sides}; {war['stage']}"
            + (f", waiting for {', '.join(war['waiting_for'])}" if war["waiting_for"] else "")
        )
    spent = {
        seat: p["spent_this_decade"] for seat, p in view["players"].items() if p.get("spent_this_decade")
    }
    for seat, powers in spent.items():
        console.print(f"{seat} has used this decade: {', '.join(powers)}")
    auction = view.get("auction")
    if auction:
        console.print(
            f"[bold]auction:[/bold] {auction['name']} — {auction['high_bidder']} leads at "
            f"{auction['bid']} {auction['currency']}; {auction['to_act']} to bid or pass"
            + (f"; passed: {', '.join(auction['passed'])}" if auction["passed"] else "")
        )


def _score(console: Any, view: Mapping[str, Any]) -> None:
    scores: dict[str, dict[str, int]] = view["score"]
    if not scores:
        return
    tie = "gold_and_influence"  # the tie-break, shown last
    categories = [name for name in next(iter(scores.values())) if name != tie]
    title = "final score" if view.get("score_final") else "score if the game ended now"
    rows = [[seat, *(str(row[name]) for name in categories), str(row[tie])] for seat, row in scores.items()]
    headings = ("seat", *map(words, categories), "gold + influence")
    print_grid(console, headings, rows, title=title, turn=True)
    if view.get("winners"):
        console.print(f"[bold]winner:[/bold] {', '.join(view['winners'])}")
