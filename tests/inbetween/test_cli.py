"""The In-Between terminal commands: ``rules inbetween``, ``odds`` and ``play inbetween``.

Everything runs in-process through Typer's ``CliRunner`` on the real app; the human is
played by feeding lines on stdin.  Odds are checked against a brute-force count written
here, independently of ``inbetween.odds``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from aceydeucey.cli.app import app
from aceydeucey.cli.inbetween_ui import (
    card_text,
    compact_actions,
    event_text,
    final_view,
    table_view,
)
from aceydeucey.core.record import Record, replay
from aceydeucey.inbetween.rules import InBetweenRules, Rules

runner = CliRunner()
PRESETS = list(Rules.PRESETS)
RANKS = "23456789TJQKA"
SUITS = "CDHS"


def invoke(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# -- rules ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_sheet_in_english_for_every_preset(preset: str) -> None:
    # The sheet of each preset prints in English with the guide's seven sections and the
    # resolved numbers (the starting chips and the number of rounds).
    rules = Rules.resolve(preset=preset)
    code, out = invoke("rules", "inbetween", "--preset", preset, "--lang", "en")
    assert code == 0, out
    text = flat(out)
    for heading in ("Selected version", "Preparation", "Round and posts", "Worked example"):
        assert heading in text
    assert f"{rules.starting_chips} chips" in text
    assert str(rules.rounds) in text


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_sheet_in_portuguese_for_every_preset(preset: str) -> None:
    # The Portuguese sheet uses seed 003's words and headings.
    code, out = invoke("rules", "inbetween", "--preset", preset, "--lang", "pt")
    assert code == 0, out
    text = flat(out).lower()
    assert "versão escolhida" in text and "exemplo resolvido" in text
    assert "balizas" in text and "dador" in text
    assert "worked example" not in text


def test_rules_option_changes_the_sheet() -> None:
    # --option ante=2: the ante sentence follows, in both languages.
    _, plain = invoke("rules", "inbetween", "--lang", "en")
    code, changed = invoke("rules", "inbetween", "--lang", "en", "--option", "ante=2")
    assert code == 0
    assert "antes 2 into the pot" in flat(changed)
    assert "antes 2 into the pot" not in flat(plain)
    _, pt = invoke("rules", "inbetween", "--lang", "pt", "-o", "ante=2", "-o", "decks=2")
    assert "ante de 2" in flat(pt) and "104 cartas" in flat(pt)
    assert "pote" in flat(pt)


def test_rules_option_booleans_and_words_are_parsed() -> None:
    # --option values: ints, true/false, words.
    code, out = invoke(
        "rules",
        "inbetween",
        "-o",
        "pairs=higher-lower",
        "-o",
        "ace_third_loses=true",
        "-o",
        "stake_cap=none",
    )
    assert code == 0, out
    assert "An ace as third card against any other pair loses." in flat(out)
    assert "no personal limit" in flat(out)
    assert InBetweenRules.parse_option("ace_third_loses", "false") is False
    assert InBetweenRules.parse_option("ante", "12") == 12
    assert InBetweenRules.parse_option("stake_cap", "none") == "none"


def test_rules_bad_options_fail_with_the_engines_message() -> None:
    # Unknown option, bad value, contradictory options, malformed pair: exit code 2.
    code, out = invoke("rules", "inbetween", "--option", "colour=red")
    assert code == 2 and "has no option 'colour'" in flat(out)
    assert "(accepted: players, dealer, starting_chips" in flat(out)  # what one types
    code, out = invoke("rules", "inbetween", "--option", "ante=-1")
    assert code == 2 and "“Ante” must be at least 0 (it was -1) (options: ante)" in flat(out)
    code, out = invoke("rules", "inbetween", "--option", "pairs=third-card")
    assert code == 2 and "needs “Who banks: The house”" in flat(out)
    assert "(options: pairs, banking)" in flat(out)
    code, out = invoke("rules", "inbetween", "--option", "ante")
    assert code == 2 and "--option expects key=value" in flat(out)
    code, out = invoke("rules", "inbetween", "--preset", "poker")
    assert code == 2 and "has no “poker”" in flat(out) and "(accepted: guide, banker" in flat(out)


def test_unknown_language_is_refused() -> None:
    code, out = invoke("rules", "inbetween", "--lang", "fr")
    assert code == 2 and "unknown language 'fr'" in flat(out)


# -- odds -------------------------------------------------------------------------------


def brute_force(
    posts: tuple[str, str], seen: list[str], decks: int, post_cost: int
) -> dict[str, Fraction]:
    """Count the third cards by hand: every card of ``decks`` decks less posts and seen.

    Aces are high; a pair of posts leaves nothing inside.  EV per chip: inside +1,
    outside -1, equal to a post -post_cost.
    """
    left = Counter(r + s for r in RANKS for s in SUITS for _ in range(decks))
    for card in (*posts, *seen):
        assert left[card] > 0
        left[card] -= 1
    low, high = sorted(RANKS.index(c[0]) for c in posts)
    inside = outside = post = 0
    for card, copies in left.items():
        rank = RANKS.index(card[0])
        if rank in (low, high):
            post += copies
        elif low < rank < high:
            inside += copies
        else:
            outside += copies
    total = inside + outside + post
    return {
        "inside": Fraction(inside, total),
        "outside": Fraction(outside, total),
        "post": Fraction(post, total),
        "ev_per_chip": Fraction(inside - outside - post_cost * post, total),
    }


def odds_json(*args: str) -> dict[str, Fraction]:
    """The first stake's odds from ``odds --json``: inside, outside, post, EV per chip."""
    code, out = invoke("odds", *args, "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["decision"] == "bet"
    bet = data["bets"][0]
    assert bet["action"] == "bet"
    chances = {o["outcome"]: Fraction(o["chance"]) for o in bet["outcomes"]}
    got = {k: chances.get(k, Fraction(0)) for k in ("inside", "outside", "post")}
    return {**got, "ev_per_chip": Fraction(bet["ev_per_chip"])}


def test_odds_of_the_guides_example_posts() -> None:
    # Posts 4♣ Q♦ from a full deck: 7 ranks inside (5..J) = 28 of 50 cards; 6 cards on
    # a post; 16 outside. Guide EV: (28 - 16 - 2*6)/50 = 0.
    got = odds_json("4C", "QD")
    assert got == {
        "inside": Fraction(28, 50),
        "outside": Fraction(16, 50),
        "post": Fraction(6, 50),
        "ev_per_chip": Fraction(0),
    }


def test_odds_json_prints_fractions_as_p_over_q() -> None:
    # The exact strings: "p/q", and a whole number as str(Fraction) writes it ("0").  The
    # default table: the guide's 100 starting chips, a pot of 4 antes, round 1; the bet is
    # worth nothing (EV 0), so both the best stake and Kelly's are a pass.
    code, out = invoke("odds", "4C", "QD", "--json")
    assert code == 0
    assert json.loads(out) == {
        "decision": "bet",
        "forced": False,
        "bets": [
            {
                "action": "bet",
                "after": None,
                "gap": None,
                "posts": [4, 12],
                "outcomes": [
                    {"outcome": "inside", "stakes": 1, "chance": "14/25"},
                    {"outcome": "outside", "stakes": -1, "chance": "8/25"},
                    {"outcome": "post", "stakes": -2, "chance": "3/25"},
                ],
                "ev_per_chip": "0",
                "advice": {
                    "min_stake": 1,
                    "max_stake": 4,
                    "can_pass": True,
                    "balance": 100,
                    "riding": 0,
                    "best_stake": 0,
                    "best_action": "pass",
                    "best_value": "0",
                    "kelly_fraction": 0.0,
                    "kelly_fraction_exact": "0",
                    "kelly_stake": 0,
                    "kelly_action": "pass",
                    "kelly_value": "0",
                },
            }
        ],
        "values": {},
        "table": {"balance": 100, "round": 1, "pot": 4},
    }


def test_odds_follow_the_presets_rules() -> None:
    # Red Dog 7C 7D: trips pay 11 to 1, else a push: +11/25; 4C 5D is a push: 0.
    code, out = invoke("odds", "7C", "7D", "--preset", "red-dog", "--lang", "en")
    assert code == 0 and "+11/25" in out and "three of a kind" in out
    code, out = invoke("odds", "4C", "5D", "--preset", "red-dog", "--lang", "en")
    assert code == 0 and "EV per chip 0" in flat(out) and "push" in out
    code, out = invoke("odds", "4C", "5D", "--preset", "red-dog", "--json")
    assert json.loads(out)["bets"][0]["ev_per_chip"] == "0"
    # Sheets 7C 7D: a pair is called; without --call the command says so.
    code, out = invoke("odds", "7C", "7D", "--preset", "sheets", "--lang", "en")
    assert code == 2 and "--call higher" in flat(out) and "between" not in out.lower()
    code, out = invoke("odds", "7C", "7D", "--preset", "sheets", "--lang", "pt")
    assert code == 2 and "indique --call higher" in flat(out)
    code, out = invoke("odds", "7C", "7D", "--preset", "sheets", "--call", "higher", "--json")
    bet = json.loads(out)["bets"][0]
    assert bet["action"] == "higher" and bet["ev_per_chip"] == str(Fraction(28 - 20 - 4, 50))
    # An ace declared low by the dealer: -31/49 with a 9 seen (not +1/7).
    args = ["AC", "5D", "--seen", "9H", "-o", "aces=dealer-declares", "--json"]
    code, out = invoke("odds", *args, "--ace", "low")
    assert json.loads(out)["bets"][0]["ev_per_chip"] == "-31/49"
    code, out = invoke("odds", *args, "--ace", "high")
    assert json.loads(out)["bets"][0]["ev_per_chip"] == "1/7"
    # Three posts: both gaps, the second at three stakes on a post.
    code, out = invoke("odds", "3C", "9D", "KH", "--preset", "three-posts", "--lang", "en")
    assert code == 0 and "Gap 1" in out and "Gap 2" in out and "-3 per chip" in out


def test_odds_usage_line_reads_well() -> None:
    code, out = invoke("odds", "--help")
    assert code == 0
    # Typer's usage marks optional arguments [X]: the posts are optional because --table
    # and --house-edge take none (without either, missing posts are a coded error).
    assert "odds [OPTIONS] [POST1] [POST2] [POST3]" in flat(out)
    assert "{POST" not in out and "[POST POST]" not in out
    # Each post has its own help row (three identical rows told nothing).
    rows = [line for line in out.splitlines() if re.search(r"│\s+POST\d", line)]
    assert len(rows) == 3 and len({re.sub(r"POST\d", "", row) for row in rows}) == 3
    assert "--json" in out and "<bool>" not in out.split("--help")[0]


@pytest.mark.parametrize(
    ("posts", "seen", "decks", "preset", "options", "post_cost"),
    [
        (("4C", "QD"), ["5H", "5S", "QS"], 1, "guide", [], 2),
        (("AS", "2H"), [], 1, "guide", [], 2),
        (("7C", "8D"), ["9C"], 1, "guide", [], 2),
        (("9H", "9S"), [], 1, "guide", [], 2),
        (("3C", "KD"), ["4C", "4D", "KD"], 2, "guide", [], 2),
        (("4C", "QD"), ["TH"], 1, "sheets", [], 1),
        (("2C", "JD"), [], 1, "guide", ["--option", "post_multiplier=3"], 3),
    ],
)
def test_odds_match_a_brute_force_count(
    posts: tuple[str, str],
    seen: list[str],
    decks: int,
    preset: str,
    options: list[str],
    post_cost: int,
) -> None:
    # Each case against the count above: seen cards removed, decks combined, the post
    # cost of the chosen rules in the EV.
    args = [*posts, "--decks", str(decks), "--preset", preset, *options]
    if seen:
        args += ["--seen", ",".join(seen)]
    assert odds_json(*args) == brute_force(posts, seen, decks, post_cost)


_CARDS = [r + s for r in RANKS for s in SUITS]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    cards=st.lists(st.sampled_from(_CARDS), min_size=2, max_size=8, unique=True),
)
def test_odds_property_matches_brute_force(cards: list[str]) -> None:
    # Any two posts and up to six distinct seen cards from one deck.
    posts, seen = (cards[0], cards[1]), cards[2:]
    args = [*posts]
    if seen:
        args += ["--seen", ",".join(seen)]
    got = odds_json(*args)
    assert got == brute_force(posts, seen, 1, 2)
    assert got["inside"] + got["outside"] + got["post"] == 1


def test_odds_plain_output_shows_cards_and_fractions() -> None:
    # Without --json: the posts with suit symbols and the exact fractions.
    code, out = invoke("odds", "4C", "QD", "--seen", "5H,5S,QS", "--lang", "en")
    assert code == 0
    assert "4♣" in out and "Q♦" in out and "5♥" in out
    assert "26/47" in out and "EV per chip" in out
    code, out = invoke("odds", "4C", "QD", "--lang", "pt")
    assert code == 0 and "dentro" in out and "baliza" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["4C", "QX"], "'QX' is not a card"),
        (["4C"], "give the posts (two, or three under three posts)"),
        (["4C", "QD", "5H"], "needs 2 posts under these rules, not 3"),
        (["4C", "QD", "--seen", "5H,ZZ"], "'ZZ' is not a card"),
        (["4C", "QD", "--seen", "4C"], "seen more often than one deck holds"),
        (["4C", "QD", "--decks", "0"], "decks"),
        (["4C", "QD", "--option", "nonsense=1"], "has no option 'nonsense'"),
    ],
)
def test_odds_bad_input_exits_2_with_a_clear_error(args: list[str], message: str) -> None:
    code, out = invoke("odds", *args)
    assert code == 2
    assert message in flat(out)


# -- play -------------------------------------------------------------------------------


def test_bots_only_game_writes_a_record_that_replays(tmp_path: Path) -> None:
    # --bots = players: four bots play the guide to the end; the record replays and the
    # replay's returns equal the record's result.
    path = tmp_path / "game.json"
    code, out = invoke(
        "play", "inbetween", "--bots", "4", "--seed", "1", "--record", str(path), "--lang", "en"
    )
    assert code == 0, out
    assert path.is_file()
    assert "Record saved to" in out and "Final standings" in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["game"] == "inbetween" and record["result"]["terminal"] is True
    assert len(record["players"]) == 4
    code, out = invoke("replay", str(path), "--json")
    assert code == 0, out
    replayed = json.loads(out)
    assert replayed["terminal"] is True
    assert replayed["returns"] == record["result"]["returns"]
    assert sum(Fraction(r) for r in replayed["returns"]) == 0


def test_same_seed_same_game(tmp_path: Path) -> None:
    # --seed makes the shuffles reproducible: two runs write the same actions.
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path in (a, b):
        code, _ = invoke(
            "play",
            "inbetween",
            "--bots",
            "3",
            "--players",
            "3",
            "--seed",
            "7",
            "--bot",
            "random",
            "--record",
            str(path),
        )
        assert code == 0
    actions_a = json.loads(a.read_text())["actions"]
    assert actions_a == json.loads(b.read_text())["actions"]
    assert len(json.loads(a.read_text())["players"]) == 3


def test_default_record_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Without --record the game goes to records/inbetween-<timestamp>.json.
    monkeypatch.chdir(tmp_path)
    code, out = invoke("play", "inbetween", "--bots", "2", "--players", "2", "--seed", "2")
    assert code == 0, out
    saved = list((tmp_path / "records").glob("inbetween-*.json"))
    assert len(saved) == 1
    assert saved[0].name in flat(out).replace(" ", "")
    # A second game in the same second does not overwrite the first.
    code, _ = invoke("play", "inbetween", "--bots", "2", "--players", "2", "--seed", "2")
    assert code == 0
    assert len(list((tmp_path / "records").glob("inbetween-*.json"))) == 2


def test_other_presets_play_to_the_end(tmp_path: Path) -> None:
    # Red Dog (house bank) and sheets (pairs call higher/lower) also run unattended.
    for preset in ("red-dog", "sheets", "banker", "three-posts"):
        path = tmp_path / f"{preset}.json"
        code, out = invoke(
            "play",
            "inbetween",
            "--preset",
            preset,
            "--players",
            "3",
            "--bots",
            "3",
            "--seed",
            "5",
            "--bot",
            "random",
            "--record",
            str(path),
            "-o",
            "rounds=2",
        )
        assert code == 0, (preset, out)
        code, out = invoke("replay", str(path), "--json")
        assert code == 0 and json.loads(out)["terminal"] is True, (preset, out)


def _human_game(tmp_path: Path, lines: list[str], *extra: str) -> tuple[int, str, Path]:
    path = tmp_path / "human.json"
    code, out = invoke(
        "play",
        "inbetween",
        "--seed",
        "3",
        "--record",
        str(path),
        "--lang",
        "en",
        *extra,
        input="\n".join(lines) + "\n",
    )
    return code, out, path


def test_human_invalid_bet_is_refused_with_the_reason_and_reprompted(tmp_path: Path) -> None:
    # The human's first answer is a stake far above the pot: the engine's reason is shown
    # and the prompt comes again; "odds" shows the odds; then passes finish the game.
    prompt = "Your action"
    code, out, path = _human_game(tmp_path, ["bet 999", "odds", "?", "pass"] + ["pass"] * 10)
    assert code == 0, out
    text = flat(out)
    assert "Not accepted: bet 999: at most" in text
    first_refusal = text.index("Not accepted")
    assert prompt in text[first_refusal:]
    assert text.count("EV per chip") == 2
    assert "Legal: pass, bet 1–" in text
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["result"]["terminal"] is True
    assert "bet 999" not in record["actions"]
    assert record["players"][0] == "You"
    code, out = invoke("replay", str(path), "--json")
    assert code == 0 and json.loads(out)["terminal"] is True


def test_human_syntax_error_is_explained(tmp_path: Path) -> None:
    # Text that is no action at all gets the parser's message, then the game goes on.
    code, out, _ = _human_game(tmp_path, ["five chips please", "pass"] + ["pass"] * 10)
    assert code == 0
    assert "'five chips please' is not an action now. You may: pass, bet 1–" in flat(out)
    # Only what is legal now: no card, no Red Dog raise, no ace call.
    assert "raise" not in flat(out) and "ace low" not in flat(out)


def test_portuguese_commands_and_messages(tmp_path: Path) -> None:
    # "apostar -1" says at least 1; unknown text lists what is legal now in Portuguese;
    # "passar" is accepted beside "pass".
    path = tmp_path / "pt.json"
    lines = ["apostar -1", "cinco fichas", "passar"] + ["passar"] * 10
    code, out = invoke(
        "play",
        "inbetween",
        "--seed",
        "3",
        "--record",
        str(path),
        "--lang",
        "pt",
        input="\n".join(lines) + "\n",
    )
    assert code == 0, out
    text = flat(out)
    assert "'apostar -1': uma aposta é de pelo menos 1" in text
    assert "'cinco fichas' não é uma ação possível agora. Pode: passar, apostar 1–" in text
    assert "Possível: passar, apostar 1–" in text
    record = json.loads(path.read_text(encoding="utf-8"))
    assert "pass" in record["actions"] and "passar" not in record["actions"]
    assert record["players"][:2] == ["Você", "Bot 1 (ev)"]
    for english in ("Not accepted", "is not", "Your action", "at least"):
        assert english not in text


def test_bet_minus_one_says_at_least_one(tmp_path: Path) -> None:
    code, out, _ = _human_game(tmp_path, ["bet -1", "pass"] + ["pass"] * 10)
    assert code == 0 and "'bet -1': a stake is at least 1" in flat(out)


def test_canonical_and_localized_actions() -> None:
    from aceydeucey.cli.inbetween import canonical_action, localized_action

    pairs = {
        "passar": "pass",
        "apostar 2": "bet 2",
        "acima 3": "higher 3",
        "abaixo 1": "lower 1",
        "dividir": "split",
        "ás baixo": "ace low",
        "as alto": "ace high",
        "ases baixos": "aces low",
        "manter": "stay",
        "aumentar 1": "raise 1",
        "BET 4": "bet 4",
    }
    for words, canonical in pairs.items():
        assert canonical_action(words) == canonical
    for canonical in ("pass", "bet 2", "higher 3", "ace low", "aces high", "stay", "raise 1"):
        assert canonical_action(localized_action(canonical, "pt")) == canonical
        assert localized_action(canonical, "en") == canonical


def test_an_unwritable_record_path_is_refused_before_play(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    code, out = invoke(
        "play", "inbetween", "--bots", "4", "--seed", "1", "--record", str(blocker / "r.json")
    )
    assert code == 2 and "cannot save the record to" in flat(out)
    assert "Round 1" not in out and "Traceback" not in out
    code, out = invoke(
        "play", "inbetween", "--bots", "4", "--record", str(tmp_path), "--lang", "pt"
    )
    assert code == 2 and "não é possível guardar o registo" in flat(out)


def test_another_session_carries_the_standings(tmp_path: Path) -> None:
    # After the first session: "c" plays another with the same seats; the standings over
    # both sessions are shown and each session has its own record.
    path = tmp_path / "s.json"
    lines = ["pass"] * 6 + ["c"] + ["pass"] * 6 + ["n"]
    code, out = invoke(
        "play",
        "inbetween",
        "--seed",
        "5",
        "--record",
        str(path),
        "--lang",
        "en",
        "-o",
        "rounds=1",
        input="\n".join(lines) + "\n",
    )
    assert code == 0, out
    text = flat(out)
    assert "Another session with the same seats?" in text
    assert "Standings after 2 sessions" in text
    assert path.exists() and (tmp_path / "s-2.json").exists()


def test_quit_shows_the_standings_and_resume_continues(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    code, out = invoke(
        "play",
        "inbetween",
        "--seed",
        "3",
        "--record",
        str(path),
        "--lang",
        "en",
        input="quit\n",
    )
    assert code == 0 and "Game stopped before the end." in out and "Standings so far" in out
    assert "Final standings" not in out  # the game is not over: no final standings
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["result"]["terminal"] is False
    done = tmp_path / "done.json"
    code, out = invoke(
        "play",
        "inbetween",
        "--resume",
        str(path),
        "--record",
        str(done),
        "--lang",
        "en",
        input="\n".join(["pass"] * 12) + "\n",
    )
    assert code == 0, out
    assert f"Resuming {path}" in flat(out)
    # The table is drawn once on resuming (the seat's prompt draws it), not twice.
    resumed = out.split("Resuming", 1)[1].split("Your turn", 1)[0]
    assert resumed.count("╭─ In-Between") == 1, resumed
    finished = json.loads(done.read_text(encoding="utf-8"))
    assert finished["actions"][: len(saved["actions"])] == saved["actions"]
    assert finished["result"]["terminal"] is True
    code, out = invoke("play", "inbetween", "--resume", str(done))
    assert code == 2 and "finished game" in flat(out)
    code, out = invoke("play", "inbetween", "--resume", str(tmp_path / "none.json"))
    assert code == 2 and "cannot resume" in flat(out)
    code, out = invoke("play", "inbetween", "--resume", str(path), "--preset", "sheets")
    assert code == 2 and "record's own rules" in flat(out)


def test_header_shows_options_readably() -> None:
    code, out = invoke(
        "play",
        "inbetween",
        "--bots",
        "4",
        "--seed",
        "2",
        "-o",
        "pairs=split",
        "-o",
        "round_limits=1,2,4",
        "--lang",
        "en",
        "--record",
        "/dev/null",
    )
    assert code == 0, out
    # each option by its player's name and its value in words, as the lobby shows it
    assert "options: Pair of posts: Split the pair; Limits by round: 1, 2, 4" in out
    assert "pairs='split'" not in out and "Bot 1 (ev)" in out


def test_human_valid_bet_is_played(tmp_path: Path) -> None:
    # A legal stake of 1 is applied: the record holds "bet 1" right after the human's
    # second post, and the third card follows it.
    code, out, path = _human_game(tmp_path, ["bet 1"] + ["pass"] * 10)
    assert code == 0, out
    actions = json.loads(path.read_text(encoding="utf-8"))["actions"]
    i = actions.index("bet 1")
    assert re.fullmatch(r"[2-9TJQKA][CDHS]", actions[i + 1])


def test_quit_saves_an_unfinished_record(tmp_path: Path) -> None:
    # "quit" stops the game; the record is saved, unfinished, and still replays.
    code, out, path = _human_game(tmp_path, ["quit"])
    assert code == 0
    assert "Game stopped before the end." in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["result"]["terminal"] is False
    code, out = invoke("replay", str(path), "--json")
    assert code == 0 and json.loads(out)["terminal"] is False


def test_end_of_input_saves_the_game_unfinished_and_fails(tmp_path: Path) -> None:
    # No input at all: the prompt meets the end of stdin. The game is saved, unfinished,
    # and the command fails (exit 1) saying so: a script never mistakes it for a finish.
    code, out, path = _human_game(tmp_path, [])
    assert code == 1 and path.is_file()
    assert "Game stopped before the end." in out
    assert "input ended before the game did" in out and "--resume" in out
    assert not replay(Record.load(path)).is_terminal()
    assert "★" not in out  # an unfinished game has no winner to star


def test_quit_stars_no_winner_of_an_unfinished_game(tmp_path: Path) -> None:
    code, out, _ = _human_game(tmp_path, ["pass", "quit"])
    assert code == 0, out
    assert "Game stopped before the end." in out
    assert "★" not in out


def test_portuguese_game(tmp_path: Path) -> None:
    # --lang pt: the table, the prompt and the standings speak Portuguese.
    code, out = invoke(
        "play",
        "inbetween",
        "--seed",
        "3",
        "--lang",
        "pt",
        "--record",
        str(tmp_path / "pt.json"),
        input="pass\n" * 10,
    )
    assert code == 0, out
    assert "Pote" in out and "Classificação final" in out and "A sua ação" in out
    assert "Registo guardado em" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "5"], "--bots must be between 0 and the number of players (4), not 5"),
        (["--bots", "-1"], "not -1"),
        (["--bot", "genius"], "unknown bot 'genius'; accepted: random, ev"),
        (["--players", "11"], "players"),
        (["--option", "players=1"], "(options: players, banking)"),
    ],
)
def test_play_bad_arguments(args: list[str], message: str) -> None:
    code, out = invoke("play", "inbetween", *args)
    assert code == 2
    assert message in flat(out)


# -- rendering from observations ----------------------------------------------------------


def render(renderable: Any) -> str:
    console = Console(width=100, record=True, force_terminal=True, color_system="truecolor")
    console.print(renderable)
    return console.export_text()


def test_cards_use_suit_symbols_and_red_for_red_suits() -> None:
    # Diamonds and hearts are red; clubs and spades are not; a hidden card is not shown.
    assert card_text("QD").plain == "Q♦" and "red" in str(card_text("QD").style)
    assert card_text("TH").plain == "10♥" and "red" in str(card_text("TH").style)
    assert card_text("4C").plain == "4♣" and "red" not in str(card_text("4C").style)
    assert card_text(None).plain == "▒▒"


def test_compact_actions_joins_runs_of_stakes() -> None:
    assert compact_actions(["pass", "bet 1", "bet 2", "bet 3", "bet 4", "bet 5"]) == (
        "pass, bet 1–5"
    )
    assert compact_actions(["pass", "bet 1"]) == "pass, bet 1"
    assert compact_actions(["higher 1", "higher 2", "lower 1", "lower 2", "pass"]) == (
        "higher 1–2, lower 1–2, pass"
    )
    assert compact_actions(["ace low", "ace high"]) == "ace low, ace high"


def _observation(**changes: Any) -> dict[str, Any]:
    obs: dict[str, Any] = {
        "seat": 0,
        "round": 2,
        "dealer": 1,
        "pot": 10,
        "chips": [97, 101, 95],
        "bank": None,
        "to_act": 0,
        "posts": ["4C", "QD"],
        "hand": ["4C", "QD"],
        "first_cards": ["4C", "9S", None],
        "seen": ["4C", "9S", "QD"],
        "ace_low": None,
        "min_stake": 1,
        "max_stake": 10,
        "legal_actions": ["pass"] + [f"bet {n}" for n in range(1, 11)],
    }
    obs.update(changes)
    return obs


def test_table_view_shows_pot_balances_posts_and_turn() -> None:
    # Built from an observation only: every balance, the pot, the posts, the stake range.
    text = render(table_view(_observation(), ["Ana", "Bia", "Caio"], "en"))
    assert "Pot 10" in text and "Round 2" in text
    for name, chips in (("Ana", 97), ("Bia", 101), ("Caio", 95)):
        assert re.search(rf"{name}.*\b{chips}\b", text)
    assert "Posts  4♣  Q♦" in text
    assert "Stake from 1 to 10 chips" in text
    assert "▶  Ana (you)" in text
    assert "Bia (dealer)" in text
    pt = render(table_view(_observation(bank=500, pot=0), ["Ana", "Bia", "Caio"], "pt"))
    assert "Banca 500" in pt and "Balizas" in pt


def test_table_view_says_a_single_stake_without_a_range() -> None:
    """Red Dog's raise of one chip read "Stake from 1 to 1 chips"."""
    one = _observation(min_stake=1, max_stake=1, legal_actions=["stay", "raise 1"])
    assert "Stake 1 chip" in render(table_view(one, ["Ana", "Bia", "Caio"], "en"))
    assert "Aposta de 1 ficha" in render(table_view(one, ["Ana", "Bia", "Caio"], "pt"))
    three = _observation(min_stake=3, max_stake=3)
    assert "Stake 3 chips" in render(table_view(three, ["Ana", "Bia", "Caio"], "en"))


def test_event_lines_narrate_the_engine_events() -> None:
    names = ["Ana", "Bia"]
    line = event_text(
        {"kind": "settle", "seat": 1, "third": "9H", "outcome": "inside", "delta": 2, "pot": 8},
        names,
        "en",
    )
    assert line is not None
    assert line.plain == "• Bia: third card 9♥ inside: wins (+2)  Pot 8"
    bet = event_text({"kind": "bet", "seat": 0, "call": "between", "stake": 3}, names, "pt")
    assert bet is not None and bet.plain == "• Ana aposta 3"
    # An event kind the catalog does not know is still shown, field by field.
    odd = event_text({"kind": "mystery", "seat": 0, "x": 1}, names, "en")
    assert odd is not None and "mystery" in odd.plain and "x=1" in odd.plain
    assert event_text(None, names, "en") is None


def test_final_view_shows_exact_results_and_winners() -> None:
    # Exact results as mixed numbers (never "3/2"), the winners starred, and each seat's
    # share of the pot left over: result + starting chips - chips (3/2 + 100 - 99 = 5/2).
    text = render(
        final_view(
            ["3/2", "-3/2", "0"],
            [0],
            ["Ana", "Bia", "Caio"],
            [99, 96, 97],
            "en",
            starting_chips=100,
        )
    )
    assert "Final standings" in text and "Pot share" in text
    assert "+1½" in text and "-1½" in text and "3/2" not in text
    assert re.search(r"Ana\s+99\s+2½", text)
    assert re.search(r"Ana.*winner", text) and not re.search(r"Bia.*winner", text)
    no_share = render(final_view(["1", "-1"], [0], ["Ana", "Bia"], [101, 99], "en"))
    assert "Pot share" not in no_share and "+1" in no_share


class _Script:
    """An agent that plays the given action texts in order."""

    def __init__(self, *actions: str) -> None:
        self.actions = list(actions)

    def act(self, observation: dict[str, Any]) -> str:
        return self.actions.pop(0)


def test_narration_names_the_outcome_of_the_rounds_last_bet() -> None:
    # Guide, two players, seat 0 deals. First cards: seat 1 gets 4♣, the dealer 5♦.
    # Seat 1 gets 9♠ and passes; the dealer gets Q♦, bets 1, and the third card 9♥ is
    # inside (+1). That bet ends the round, so the narration must still say so.
    from aceydeucey import load_game
    from aceydeucey.cli.inbetween import Narrator
    from aceydeucey.core.chance import Seeded, Stacked
    from aceydeucey.core.table import Table

    game = load_game("inbetween", players=2)
    out = Console(width=120, record=True)
    names = ["Ana", "Bia"]
    narrator = Narrator(names, "en", out, viewer=None)
    chance = Stacked(["4C", "5D", "9S", "QD", "9H"], then=Seeded(0))
    table = Table(
        game,
        [_Script("bet 1"), _Script("pass")],
        chance=chance,
        names=names,
        listeners=[narrator],
    )
    while len(table.record.actions) < 7:
        table.step()
    assert table.record.actions == ["4C", "5D", "9S", "pass", "QD", "bet 1", "9H"]
    text = out.export_text()
    assert "Ana bets 1" in text
    assert "Ana: third card 9♥ inside: wins (+1)" in text
    assert "Bia passes" in text


@pytest.mark.parametrize(
    "options",
    [
        {"preset": "guide"},
        {"preset": "banker", "rounds": 2},
        {"preset": "sheets", "rounds": 2},
        {"preset": "red-dog", "rounds": 3},
        {"preset": "three-posts", "rounds": 2},
        {"aces": "first-card", "pairs": "split", "adjacent": "push", "dealer": "draw"},
        {"hidden": True, "deal": "both-around", "ante_to_play": True, "pairs": "win"},
    ],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()),
)
def test_every_engine_event_has_a_message(options: dict[str, Any]) -> None:
    # Random play over each preset and several variants: every event the engine reports
    # is narrated from the catalog (the field-by-field fallback shows "key=value"),
    # in both languages.
    from aceydeucey import RandomAgent, Seeded, Table, load_game

    game = load_game("inbetween", players=3, **options)
    names = ["Ana", "Bia", "Caio"]
    seen_kinds: set[str] = set()
    for seed in range(3):
        agents = [RandomAgent(seed * 10 + i) for i in range(3)]
        table = Table(game, agents, chance=Seeded(seed), names=names)
        while not table.state.is_terminal():
            table.step()
            event = table.state.observation(0)["last_event"]
            if not event:
                continue
            seen_kinds.add(event["kind"])
            for lang in ("en", "pt"):
                line = event_text(event, names, lang, posts=["4C", "QD"])
                assert line is not None
                assert "=" not in line.plain, (lang, event, line.plain)
    assert seen_kinds


def test_later_sessions_name_their_records() -> None:
    from aceydeucey.cli.inbetween import record_path_after

    assert record_path_after(Path("out/game.json"), 2) == Path("out/game-2.json")
    assert record_path_after(Path("/dev/null"), 3) == Path("/dev/null")
    assert record_path_after(None, 2).parent == Path("records")


def test_refusals_in_portuguese_echo_the_players_words_and_seats_from_one(
    tmp_path: Path,
) -> None:
    # Each refusal repeats the action in the words the player types (apostar 99, acima 1,
    # manter), lists what may be typed in the same words, and counts seats from 1.
    path = tmp_path / "pt.json"
    code, out = invoke(
        "play",
        "inbetween",
        "--seed",
        "3",
        "--lang",
        "pt",
        "--record",
        str(path),
        input="bet 99\nhigher 1\nstay\n5H\n\npass\nquit\n",
    )
    assert code == 0, out
    text = flat(out)
    assert "Não aceite: apostar 99: no máximo" in text
    assert "Não aceite: acima 1: não com estas balizas; pode: apostar, passar" in text
    assert "Não aceite: manter:" in text
    assert "o lugar 1 tem de decidir" in text and "o lugar 0" not in text
    for english in ("bet 99", "higher 1", "stay:", "pode: bet", "passar, bet"):
        assert english not in text, english
    # An empty answer is asked again with the reason: what may be typed.
    assert text.count("A sua vez. Possível: passar, apostar 1–4") >= 2


def test_three_posts_narration_names_the_gap(tmp_path: Path) -> None:
    # Each decision and third card under three posts says which gap it is on.
    code, out = invoke(
        "play",
        "inbetween",
        "--seed",
        "5",
        "--players",
        "2",
        "--preset",
        "three-posts",
        "-o",
        "rounds=1",
        "--lang",
        "en",
        "--record",
        str(tmp_path / "tp.json"),
        input="pass\nbet 1\nmaybe\nn\n",
    )
    assert code == 0, out
    text = flat(out)
    assert "Bot 1 (ev) passes (gap 1: J♠ to A♦)" in text
    assert "Bot 1 (ev) bets 1 (gap 2: A♦ to 7♠)" in text
    assert "You pass (gap 1: 6♣ to K♣)" in text and "You bet 1 (gap 2: K♣ to 10♠)" in text
    assert re.search(r"third card 2♦ outside: loses \(-1\) Pot 2 \(gap 2: K♣ to 10♠\)", text)
    # A wrong answer to "another session?" is asked again with the choices.
    assert text.count("Another session with the same seats? c: carry") == 2


@pytest.mark.parametrize(
    ("preset", "pt"),
    [
        ("guide", "regras do guia"),
        ("banker", "regras do jogo do dador"),
        ("sheets", "regras das folhas"),
        ("red-dog", "regras do Red Dog"),
        ("three-posts", "regras de três balizas"),
    ],
)
def test_the_welcome_names_the_preset_in_the_players_language(
    preset: str, pt: str, tmp_path: Path
) -> None:
    # Not "regras guide": the preset's id stays out of a Portuguese screen.
    code, out = invoke(
        "play", "inbetween", "--preset", preset, "--bots", "3", "--players", "3",
        "--seed", "1", "-o", "rounds=1", "--lang", "pt", "--record", str(tmp_path / "w.json"),
    )  # fmt: skip
    assert code == 0, out
    first = out.splitlines()[0]
    assert first == f"In-Between: {pt}"
