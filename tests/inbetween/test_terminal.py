"""The terminal's pieces one by one: ``?`` on every kind of decision, every event through
the catalog, every seen card shown."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.console import Console

from aceydeucey.cli.inbetween import HumanAgent
from aceydeucey.cli.inbetween_ui import event_text, seen_text, table_view
from aceydeucey.inbetween.game import InBetweenState
from tests.inbetween.inbetween_helpers import new, play


def odds_screen(state: InBetweenState, lang: str = "en") -> str:
    out = Console(record=True, width=120)
    agent = HumanAgent(["You", "Bot 1 (ev)", "Bot 2 (ev)"], lang, out)
    seat = state.to_act
    assert seat is not None
    agent.seated(state.game, seat)
    agent.show_odds(state.observation(seat))
    return re.sub(r"\s+", " ", out.export_text())


def test_question_mark_on_an_ordinary_bet() -> None:
    text = odds_screen(play(new(players=2), "4C", "9H", "QD"))
    assert "Bet between 4 and Q" in text and "EV per chip" in text
    assert "Values (expected chips): pass 0 · bet 1–" in text
    # One stake: its advice names the best action once ("Most chips on average"), not twice.
    assert "Most chips on average:" in text and "Best:" not in text


def test_question_mark_on_an_ace_call() -> None:
    text = odds_screen(play(new(players=2, aces="first-card"), "AC", "5C"))
    assert "Call the first-post ace low or high" in text
    assert "ace low" in text and "ace high" in text
    pt = odds_screen(play(new(players=2, aces="first-card"), "AC", "5C"), "pt")
    assert "ás baixo" in pt and "ás alto" in pt


def test_question_mark_on_higher_and_lower() -> None:
    text = odds_screen(play(new(preset="sheets", players=2), "7C", "7D"))
    assert "Higher than the pair of 7" in text and "Lower than the pair of 7" in text
    assert "higher 1" in text and "lower 1" in text


def test_question_mark_on_a_split() -> None:
    text = odds_screen(play(new(players=2, pairs="split"), "7C", "5D", "7D"))
    assert "split -1" in text and "Most chips on average: pass (0)" in text
    assert "Best:" not in text  # the best action is named once
    # When the best action is one no stake's advice names, the overall best is given.
    ace = odds_screen(play(new(players=2, aces="first-card"), "AC", "5C"))
    assert "Best:" in ace


def test_question_mark_on_three_posts_gaps() -> None:
    state = play(new(preset="three-posts", players=2), "3C", "5C", "9D", "KH")
    assert "Gap 1: Bet between 3 and 9" in odds_screen(state)
    second = odds_screen(play(state, "pass"))
    assert "Gap 2: Bet between 9 and K" in second and "compulsory" in second


def test_question_mark_on_red_dog_and_the_declaration() -> None:
    text = odds_screen(play(new(preset="red-dog", players=1), "4C", "9D"))
    assert "Red Dog: stay, or raise" in text and "stay" in text and "raise 1" in text
    declare = new(players=2, aces="dealer-declares")
    assert "no chips move" in odds_screen(declare)


def test_question_mark_knows_the_dealers_aces_low() -> None:
    state = play(new(players=2, aces="dealer-declares"), "aces low", "AC", "9H", "5D")
    assert "-31/49" in odds_screen(state)


def test_three_posts_prompt_names_the_gap_and_the_compulsory_bet() -> None:
    state = play(new(preset="three-posts", players=2), "3C", "5C", "9D", "KH", "pass")
    out = Console(record=True, width=120)
    agent = HumanAgent(["You", "Bot 1 (ev)"], "en", out)
    agent.show_gap(state.observation(1))
    text = out.export_text()
    assert "Gap 2 of 2: from 9♦ to K♥" in text and "compulsory" in text


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_a_refill_reads_as_a_sentence(lang: str) -> None:
    line = event_text({"kind": "replenish", "amount": 4, "pot": 4}, ["A", "B"], lang)
    assert line is not None and "=" not in line.plain and "replenish" not in line.plain
    assert "4" in line.plain


def test_every_sheets_event_reads_as_a_sentence() -> None:
    # Seeded Sheets sessions refill the pool; no event prints as raw fields.
    from aceydeucey import RandomAgent, Seeded, Table, load_game

    game = load_game("inbetween", preset="sheets", players=3, rounds=10)
    kinds: set[str] = set()
    for seed in range(6):
        table = Table(game, [RandomAgent(seed * 3 + i) for i in range(3)], chance=Seeded(seed))
        while not table.state.is_terminal():
            table.step()
            event = table.state.observation(0)["last_event"]
            for each in [event, *(event or {}).get("after", [])] if event else []:
                kinds.add(each["kind"])
                for lang in ("en", "pt"):
                    line = event_text(each, ["A", "B", "C"], lang)
                    assert line is not None and "=" not in line.plain, each
    assert "replenish" in kinds


def test_all_seen_cards_are_shown_grouped_by_rank_when_many() -> None:
    seen = ["2C", "2D", "5H", "5S", "QC", "KD", "KH", "3S", "4S", "6S", "7S", "8S", "9S", "TS"]
    seen.append("JS")
    obs: dict[str, Any] = {"chips": [10, 10], "seen": seen, "round": 1, "pot": 2}
    out = Console(record=True, width=120)
    out.print(table_view(obs, ["You", "Bot 1 (ev)"], "en"))
    text = out.export_text()
    assert "Seen this shuffle (15)" in text
    assert "2 ♣♦" in text and "K ♦♥" in text and "J ♠" in text
    assert seen_text(seen[:3]).plain == "2♣ 2♦ 5♥"


def test_the_end_of_a_session_never_shows_english_in_portuguese() -> None:
    # A termination code renders in the language; an uncoded engine reason (English text)
    # is left out of a Portuguese screen.
    event = {"kind": "over", "reason": "3 complete rounds played"}
    pt = event_text(event, ["A"], "pt")
    assert pt is not None and pt.plain == "• A sessão termina."
    en = event_text(event, ["A"], "en")
    assert en is not None and "3 complete rounds played" in en.plain
    coded = {
        **event,
        "termination": "ib_rules.moot_option",
        "params": {"option": "x", "value": "1", "by": "y", "by_value": "2"},
    }
    line = event_text(coded, ["A"], "pt")
    assert line is not None and "não tem efeito" in line.plain


def test_events_address_the_player_at_the_screen() -> None:
    line = event_text({"kind": "bet", "seat": 0, "stake": 2}, ["You", "Bot 1 (ev)"], "en", you=0)
    assert line is not None and line.plain.startswith("• You bet 2")
    line = event_text({"kind": "bet", "seat": 1, "stake": 2}, ["You", "Bot 1 (ev)"], "en", you=0)
    assert line is not None and line.plain.startswith("• Bot 1 (ev) bets 2")
    line = event_text({"kind": "pass", "seat": 0}, ["Você", "Bot 1 (ev)"], "pt", you=0)
    assert line is not None and line.plain.startswith("• Você passa")


def test_an_end_reason_given_as_a_message_renders_in_the_language() -> None:
    # The engine's "over" event may carry its reason as {"code", "params"}.
    reason = {
        "code": "ib_rules.players_for_preset",
        "params": {"players": 9, "preset": "guide", "low": 2, "high": 8},
    }
    line = event_text({"kind": "over", "reason": reason}, ["A"], "pt")
    assert line is not None and "2 a 8 jogadores" in line.plain


def test_the_person_at_the_screen_deals_in_the_second_person() -> None:
    # "Round 2: You deals" read wrongly: the new round's dealer is addressed as "you".
    names = ["You", "Bot 1 (ev)"]
    event = {"kind": "round", "round": 2, "dealer": 0, "pot": 4}
    line = event_text(event, names, "en", you=0)
    assert line is not None and line.plain == "• Round 2: you deal; pot 4"
    other = event_text({**event, "dealer": 1}, names, "en", you=0)
    assert other is not None and other.plain == "• Round 2: Bot 1 (ev) deals; pot 4"
    pt = event_text(event, ["Você", "Bot 1 (ev)"], "pt", you=0)
    assert pt is not None and pt.plain == "• Volta 2: você dá; pote 4"


def test_a_dealer_finding_the_pot_empty_takes_nothing() -> None:
    # Not "takes the 0 left in the pot".
    names = ["You", "Bot 1 (ev)"]
    empty = {"kind": "dealer-takes", "seat": 1, "amount": 0}
    line = event_text(empty, names, "en", you=0)
    assert line is not None
    assert line.plain == "• Bot 1 (ev), the dealer, takes nothing: the pot is empty"
    mine = event_text({**empty, "seat": 0}, names, "pt", you=0)
    assert mine is not None and "não leva nada" in mine.plain
    some = event_text({**empty, "amount": 3}, names, "en", you=0)
    assert some is not None and "takes the 3 left in the pot" in some.plain


def test_the_docs_list_exactly_the_observation_keys() -> None:
    # docs/inbetween.md's table of observation keys against the real observation(), over
    # games of every preset, from every seat and a spectator's view, to the end.
    from pathlib import Path

    from aceydeucey.core.chance import Seeded
    from aceydeucey.core.registry import load_game
    from aceydeucey.inbetween.rules import Rules

    doc = (Path(__file__).parents[2] / "docs" / "inbetween.md").read_text(encoding="utf-8")
    section = doc.split("## State and observation", 1)[1].split("\n## ", 1)[0]
    documented: set[str] = set()
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            documented.update(k for k in re.findall(r"`([a-z_]+)`", first))
    real: set[str] = set()
    for preset in Rules.PRESETS:
        state = load_game("inbetween", preset=preset, players=3, rounds=1).new_initial_state()
        chance = Seeded(1)
        while True:
            for seat in (None, 0, 1, 2):
                real.update(state.observation(seat))
            if state.is_terminal():
                break
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
            else:
                state = state.apply(state.legal_actions()[-1])
    assert documented == real, (documented - real, real - documented)
