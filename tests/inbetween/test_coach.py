"""The odds coach: each stake's limits, its best stake by expected chips and Kelly's.

``posts_odds`` (the ``odds`` command) and ``decision_odds`` (the terminal's ``?``, the
bots and the web coach) give every stake a ``StakeAdvice``; these tests check it against
the rules' limits written out by hand, the legal actions of real observations and the
exact action values, then the command's table of spreads and its Portuguese output.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import aceydeucey
from aceydeucey.cards import Card, deck
from aceydeucey.cli.app import app
from aceydeucey.core import Seeded
from aceydeucey.inbetween.odds import decision_odds, posts_odds, stake_action
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules
from tests.inbetween.test_kelly import log_growth

runner = CliRunner()
ALL = list(deck(1))


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@settings(max_examples=80, deadline=None)
@given(
    cards=st.lists(st.sampled_from(ALL), min_size=2, max_size=10, unique=True),
    chips=st.integers(0, 300),
    pot=st.integers(1, 200),
)
def test_guide_advice_follows_the_guides_limits(cards: list[Card], chips: int, pot: int) -> None:
    """Guide: stakes 1 to the pot and half one's chips; the best stake by EV is the most
    allowed on a favourable bet, else a pass; Kelly's maximises the log of the chips."""
    posts, seen = cards[:2], cards[2:]
    bet = posts_odds(Rules.resolve(), posts, seen, chips=chips, pot=pot).bets[0]
    advice = bet.advice
    assert advice is not None
    high = min(pot, chips // 2)
    assert advice.limits == ((1, high) if high >= 1 else None)
    assert advice.can_pass and advice.wealth == chips
    ev = bet.ev_per_chip
    assert advice.best == (high if ev > 0 and high >= 1 else 0)
    assert advice.best_value == advice.best * ev
    legal = [0, *range(1, high + 1)]
    weights = {m: p for m, p in bet.multiples().items()}
    growth = (
        {s: log_growth({m: int(p * 10**6) for m, p in weights.items()}, chips, s) for s in legal}
        if chips > 0
        else {0: 0.0}
    )
    assert advice.kelly.stake in legal
    assert growth[advice.kelly.stake] >= max(growth.values()) - 1e-9
    assert advice.kelly_value == advice.kelly.stake * ev
    if ev <= 0:
        assert advice.kelly.stake == 0 and advice.kelly.fraction == 0


def test_red_dog_and_three_posts_advice() -> None:
    # Red Dog 3-Q: the ante rides; a raise adds up to the ante; the whole bet is staked.
    red = Rules.resolve(preset="red-dog", ante=2)
    bet = posts_odds(red, [Card.from_text("3C"), Card.from_text("QD")], chips=50).bets[0]
    assert bet.advice is not None
    assert bet.advice.limits == (2, 4) and bet.advice.riding == 2 and not bet.advice.can_pass
    assert bet.advice.wealth == 52
    assert stake_action(bet, bet.advice.best) == "raise 2"  # EV +7/25 per chip
    assert bet.advice.best_value == 4 * Fraction(7, 25)
    assert bet.advice.kelly.exact == Fraction(7, 25)  # even money: p - q = 16/25 - 9/25
    # Few chips: the raise is capped by them.
    bet = posts_odds(red, [Card.from_text("3C"), Card.from_text("QD")], chips=1).bets[0]
    assert bet.advice is not None and bet.advice.limits == (2, 3)
    # Three posts: the second bet is compulsory (no pass) and costs three on a post.
    three = Rules.resolve(preset="three-posts")
    posts = [Card.from_text(c) for c in ("3C", "9D", "KH")]
    first, second = posts_odds(three, posts, chips=30, pot=10).bets
    assert first.advice is not None and second.advice is not None
    assert first.advice.can_pass and not second.advice.can_pass
    assert first.advice.limits == (1, 10) and second.advice.limits == (1, 10)
    capped = posts_odds(three, posts, chips=20, pot=10).bets[1].advice
    assert capped is not None and capped.limits == (1, 6)


def _decisions(preset: str, seeds: int) -> list[tuple[Rules, dict[str, Any]]]:
    """Observations of every decision in seeded sessions of ``preset`` (ev bots play)."""
    from aceydeucey.inbetween.bots import ExpectedValueBot

    game = aceydeucey.load_game("inbetween", preset=preset)
    rules = game.rules
    assert isinstance(rules, Rules)
    out = []
    for seed in range(seeds):
        bot = ExpectedValueBot()
        bot.seated(game, 0)
        state, chance = game.new_initial_state(), Seeded(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
                continue
            obs = state.observation(state.current_player())
            out.append((rules, obs))
            state = state.apply(bot.act(obs))
    return out


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_in_play_advice_agrees_with_the_legal_actions_and_their_values(preset: str) -> None:
    """At every decision with a stake, the advice's limits are the legal stakes, its best
    stake is the action of most value among the pass and that stake (ties: smaller), and
    Kelly's stake is a legal action."""
    advised = 0
    for rules, obs in _decisions(preset, 3):
        odds = decision_odds(rules, obs)
        legal = list(obs["legal_actions"])
        for bet in odds.bets:
            if bet.advice is None or bet.after is not None:
                continue
            advised += 1
            a = bet.advice
            own = [x for x in legal if x.split()[0] in (bet.action, "pass", "stay")]
            assert stake_action(bet, a.kelly.stake) in legal
            assert stake_action(bet, a.best) in legal
            best = max(own, key=lambda x: (odds.values[x], -_stake(x)))
            assert stake_action(bet, a.best) == best
            assert a.best_value == odds.values[best]
            assert a.kelly_value == odds.values[stake_action(bet, a.kelly.stake)]
            seat = int(obs["seat"])
            riding = int(obs["bets"][seat]) if bet.action == "raise" else 0
            assert a.wealth == obs["chips"][seat] + riding
    assert advised > 5


def _stake(action: str) -> int:
    _, _, amount = action.partition(" ")
    return int(amount) if amount.isdigit() else 0


def test_the_command_gives_the_best_stake_and_kellys() -> None:
    # 3-Q under the guide, 37 chips, a pot of 20: stakes 1-18; EV +4/25 a chip, so the
    # most chips come from 18; Kelly's fraction is the smaller root of 25f^2 - 21f + 2,
    # (21 - sqrt(241)) / 50 = 0.1095..., 4.05 chips of 37: a stake of 4.
    code, out = invoke("odds", "3C", "QD", "--balance", "37", "--pot", "20", "--json")
    assert code == 0, out
    data = json.loads(out)
    advice = data["bets"][0]["advice"]
    assert (advice["min_stake"], advice["max_stake"]) == (1, 18)
    assert advice["best_action"] == "bet 18" and Fraction(advice["best_value"]) == Fraction(72, 25)
    assert math.isclose(advice["kelly_fraction"], (21 - math.sqrt(241)) / 50, rel_tol=1e-12)
    assert advice["kelly_fraction_exact"] is None  # 241 is not a square
    assert advice["kelly_action"] == "bet 4"
    assert data["table"] == {"balance": 37, "pot": 20, "round": 1}
    # Round limits: the escalating limit of round 2 caps the stake.
    args = ["3C", "QD", "-o", "round_limits=1,2,4", "--round", "2", "--json"]
    code, out = invoke("odds", *args)
    assert json.loads(out)["bets"][0]["advice"]["max_stake"] == 2


@pytest.mark.parametrize("decks", [1, 2])
def test_the_table_of_spreads_counts_a_full_shoe(decks: int) -> None:
    code, out = invoke("odds", "--table", "--decks", str(decks), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["decks"] == decks
    rows = data["rows"]
    assert sum(Fraction(r["frequency"]) for r in rows) == 1
    n, each = 52 * decks, 4 * decks
    for row in rows:
        chances = {o["outcome"]: Fraction(o["chance"]) for o in row["bets"][0]["outcomes"]}
        assert sum(chances.values()) == 1
        k = row["spread"]
        if k is None:  # a pair: the third card matches (a post) or lies outside
            assert Fraction(row["frequency"]) == Fraction(13 * each * (each - 1), n * (n - 1))
            assert chances["post"] == Fraction(each - 2, n - 2)
            continue
        assert Fraction(row["frequency"]) == Fraction(2 * (12 - k) * each * each, n * (n - 1))
        assert chances.get("inside", 0) == Fraction(each * k, n - 2)
        assert chances["post"] == Fraction(2 * (each - 1), n - 2)
        ev = chances.get("inside", 0) - chances.get("outside", 0) - 2 * chances["post"]
        assert Fraction(row["bets"][0]["ev_per_chip"]) == ev
    assert [r["spread"] for r in rows] == [None, *range(12)]


def test_the_table_in_both_languages() -> None:
    # Red Dog, spread 7: 14/25 inside at even money, Kelly 14/25 - 11/25 = 12%; raise.
    code, out = invoke("odds", "--table", "--preset", "red-dog", "--lang", "en")
    assert code == 0 and "Spread" in out and "11:1" in out and "5:1" in out
    assert re.search(r"\n 7 +40/663 +14/25 +3/25 +8/25 +0 +1:1 +\+3/25 +12\.0%", out), out
    code, out = invoke("odds", "--table", "--preset", "red-dog", "--lang", "pt")
    assert code == 0 and "Interv." in out and "Empate" in out
    assert "12,0%" in out and "12.0%" not in out
    # Sheets: each pair has a line per call.
    code, out = invoke("odds", "--table", "--preset", "sheets", "--lang", "en")
    assert code == 0 and "pair A" in out and "higher" in out and "lower" in out


def test_portuguese_output_is_portuguese_with_decimal_commas() -> None:
    # 3-Q with 100 chips and a pot of 4: Kelly's 10.95% of 100 chips is 10.95: 11 grows
    # the log more than 10, but the pot caps the stake at 4.
    code, out = invoke("odds", "3C", "QD", "--lang", "pt")
    assert code == 0
    for text in (
        "Saldo 100 · pote 4 · volta 1",
        "Apostas de 1 a 4",
        "Mais fichas em média",
        "apostar 4",
        "Kelly: ≈ 10,95% de 100 fichas",
        "+4/25 (+0,160)",
    ):
        assert text in out, text
    for english in ("Balance", "Stakes", "Most chips", "bet 4", "chips", "EV"):
        assert english not in out, english
    assert not re.search(r"\d\.\d", out)
    code, out = invoke("odds", "3C", "QD", "--balance", "100", "--pot", "50", "--json")
    assert json.loads(out)["bets"][0]["advice"]["kelly_stake"] == 11


@pytest.mark.parametrize(
    ("args", "english", "portuguese"),
    [
        (["4C"], "give the posts", "indique as balizas"),
        ([], "give the posts", "indique as balizas"),
        (["--table", "--seen", "5H"], "--table works from a full deck", "--table parte de um"),
        (["--table", "4C", "QD"], "it takes no posts", "não aceita balizas"),
        (["--table", "--house-edge"], "ask for one at a time", "peça uma de cada vez"),
        (["4C", "QD", "--pot", "-1"], "the pot cannot be negative", "o pote não pode"),
        (["4C", "QD", "--round", "0"], "rounds count from 1", "contam-se a partir de 1"),
        (["--house-edge"], "needs banking=house", "precisa de banking=house"),
        (["4C", "QD", "--seen", "4C"], "more often than one deck holds", "cabem num baralho"),
        (["4C", "QD", "--seen", "5H,5H,5H", "--decks", "2"], "than 2 decks hold", "em 2 baralhos"),
        (["4C", "QX"], "'QX' is not a card", "'QX' não é uma carta"),
        (["4C", "4D", "--call", "up"], "--call takes higher or lower", "--call aceita higher"),
        (["AC", "5D", "--ace", "mid"], "--ace takes low or high", "--ace aceita low"),
        (["--table", "--preset", "three-posts"], "give the three posts", "indique as três"),
    ],
)
def test_bad_input_is_a_coded_message_in_either_language(
    args: list[str], english: str, portuguese: str
) -> None:
    code, out = invoke("odds", *args, "--lang", "en")
    assert code == 2 and english in " ".join(out.split()), out
    code, out = invoke("odds", *args, "--lang", "pt")
    assert code == 2 and portuguese in " ".join(out.split()), out
    assert out.startswith("erro")


def test_no_card_left_is_a_coded_error() -> None:
    everything = ",".join(str(c) for c in ALL if str(c) not in ("4C", "QD"))
    code, out = invoke("odds", "4C", "QD", "--seen", everything, "--lang", "pt")
    assert code == 2 and "não resta nenhuma carta" in out


def test_question_mark_in_play_shows_the_best_stake_and_kellys(tmp_path: Path) -> None:
    # The guide with seed 3: at the human's first decision "?" prints each stake's limits,
    # the stake of most chips and Kelly's (the same advice the odds command gives).
    lines = ["?"] + ["pass"] * 12
    for lang, words in (
        ("en", ("Stakes 1–", "Most chips on average:", "Kelly:")),
        ("pt", ("Apostas de 1 a", "Mais fichas em média:", "Kelly:")),
    ):
        code, out = invoke(
            "play",
            "inbetween",
            "--seed",
            "3",
            "--record",
            str(tmp_path / f"{lang}.json"),
            "--lang",
            lang,
            input="\n".join(lines) + "\n",
        )
        assert code == 0, out
        text = " ".join(out.split())
        for word in words:
            assert word in text, (lang, word)
