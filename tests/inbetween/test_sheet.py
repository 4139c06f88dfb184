"""The rules sheet is generated from the resolved rules, in English and Portuguese.

Each test changes one option and checks that the sentence it governs changes with it;
the worked example is checked against the numbers printed in the guide (seed 000 §07)
and against arithmetic done here by hand.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.core.errors import RulesError
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.sheet import SECTION_KEYS, rules_sheet, sheet_sections
from aceydeucey.locale import t

PRESETS = list(Rules.PRESETS)
LANGS = ["en", "pt"]


def sheet(lang: str = "en", **options: Any) -> str:
    return rules_sheet(Rules.resolve(**options), lang)


def flat(text: str) -> str:
    """The sheet with its line wrapping undone, so phrases can be searched."""
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_has_the_guides_seven_sections_in_order(preset: str, lang: str) -> None:
    # The guide's structure: version, preparation, round and posts, bet and settlement,
    # next round, session end, worked example, numbered 01..07.
    text = sheet(lang, preset=preset)
    headings = [t("inbetween", key, lang) for key in SECTION_KEYS]
    positions = [text.index(f"{i:02d} / {h}") for i, h in enumerate(headings, 1)]
    assert positions == sorted(positions)
    sections = sheet_sections(Rules.resolve(preset=preset), lang)
    assert [h for h, _ in sections] == headings
    assert all(paragraphs and all(p.strip() for p in paragraphs) for _, paragraphs in sections)


@pytest.mark.parametrize("preset", PRESETS)
def test_portuguese_sheet_uses_the_guides_vocabulary(preset: str) -> None:
    # Seed 003's words: balizas (posts), dador (dealer), volta (round), aposta (bet).
    text = flat(sheet("pt", preset=preset)).lower()
    for word in ("balizas", "dador", "volta", "aposta"):
        assert word in text, word
    assert "the dealer" not in text


def test_portuguese_shared_pot_sheet_speaks_of_the_pote_and_passing() -> None:
    # The guide in Portuguese: "pote" for the pot, "passar" for passing.
    text = flat(sheet("pt")).lower()
    assert "pote" in text and "passar" in text


def test_guide_worked_example_matches_seed_000() -> None:
    # Seed 000 §07: posts 4♣ Q♦, stake 2, pot 10. 9♥ is inside: +2, pot 8.
    # Q♠ hits a post: -4, pot 14.
    text = flat(sheet())
    assert "Posts 4♣ and Q♦, stake 2, pot 10." in text
    assert "Third card 9♥: inside, the player gains 2; the pot becomes 8." in text
    assert "Third card Q♠: it hits a post, the player loses 4; the pot becomes 14." in text


def test_portuguese_worked_example_matches_seed_003() -> None:
    # Seed 003 §07: the same numbers, in Portuguese.
    text = flat(sheet("pt"))
    assert "Balizas 4♣ e Q♦, aposta 2, pote 10." in text
    assert "9♥: dentro, o jogador ganha 2; o pote fica com 8." in text
    assert "Q♠: bate na baliza, o jogador perde 4; o pote fica com 14." in text


def test_worked_example_follows_the_post_multiplier() -> None:
    # With posts costing three stakes, the Q♠ of the example costs 3 x 2 = 6 and the pot
    # grows from 10 to 16; the inside card is unchanged.
    text = flat(sheet(post_multiplier=3))
    assert "the player loses 6; the pot becomes 16." in text
    assert "loses 3 stakes" in text
    assert "the player gains 2; the pot becomes 8." in text


def test_single_post_loss_reads_as_outside() -> None:
    # post_multiplier=1 (Bicycle, seed 002): equal to a post is just a loss of one stake.
    text = flat(sheet(post_multiplier=1))
    assert "counts as outside" in text
    assert "Third card Q♠: it hits a post, the player loses 2; the pot becomes 12." in text


def test_ante_changes_the_preparation_and_next_round() -> None:
    # --option ante=2: everyone antes 2, in both languages.
    assert "antes 2 into the pot" in flat(sheet(ante=2))
    assert "antes 1 into the pot" in flat(sheet())
    assert "ante de 2" in flat(sheet("pt", ante=2))


def test_ante_once_is_said_once() -> None:
    # ante_each_round=False: the ante is paid before the first round only.
    text = flat(sheet(ante_each_round=False))
    assert "once, before the first round" in text
    assert "Before the next round everyone antes" not in text


def test_ante_to_play_makes_passing_cost_the_ante() -> None:
    # Seed 002's "ante to the play": a pass forfeits the ante paid at one's turn.
    text = flat(sheet(ante_to_play=True))
    assert "Passing forfeits the ante" in text
    assert "at the start of their own turn" in text


def test_starting_chips_players_and_rounds_are_printed() -> None:
    # The resolved numbers appear: players, starting chips, rounds.
    text = flat(sheet(players=6, starting_chips=250, rounds=7))
    assert "Players: 6." in text
    assert "250 chips" in text
    assert "after 7 complete rounds" in text
    # Six players who all play need at most 6 x 3 = 18 cards per round.
    assert "at most 18 cards" in text


def test_decks_count_the_cards() -> None:
    # Two decks shuffled together hold 104 cards.
    text = flat(sheet(decks=2))
    assert "Shuffle 2 standard decks together (104 cards" in text
    assert "one standard 52-card deck" in flat(sheet())


def test_stake_cap_sentence_follows_the_option() -> None:
    # cover (half one's chips when posts cost double), own chips, or no limit.
    assert "half your own chips" in flat(sheet(stake_cap="cover"))
    assert "limited to your own chips; a post loss may" in flat(sheet(stake_cap="chips"))
    assert "no personal limit" in flat(sheet(stake_cap="none"))
    assert "your chips divided by 3" in flat(sheet(post_multiplier=3))


def test_round_limits_are_stated_in_both_languages() -> None:
    assert "at most 1, 2, 4 in rounds 1 to 3" in flat(sheet(round_limits=(1, 2, 4)))
    assert "de 1, 2, 4 nas voltas 1 a 3" in flat(sheet(lang="pt", round_limits=(1, 2, 4)))
    assert "Escalating" not in flat(sheet())


def test_first_round_limit_is_stated() -> None:
    # SOURCES.md: many house games limit first-round bets to half the pot.
    assert "at most half the pot" in flat(sheet(first_round_limit="half-pot"))
    assert "at most the ante (1)" in flat(sheet(first_round_limit="ante"))
    assert "In the first round" not in flat(sheet())


def test_minimum_stake_of_the_ante() -> None:
    # Seed 001 "Minimum bet": at least the ante; the example then stakes at least the ante.
    text = flat(sheet(min_stake="ante", ante=3))
    assert "from the ante (3) to the pot" in text
    assert "stake 3, pot 10" in text


def test_ace_rule_is_stated() -> None:
    # Guide: aces always high. Seed 001/002: a first-post ace may be called low.
    assert "can never be called low" in flat(sheet())
    text = flat(sheet(aces="first-card"))
    assert "may be called low" in text and "ace low / ace high" in text


@pytest.mark.parametrize("choice", ["bet", "lose", "redeal", "push"])
def test_each_adjacent_rule_has_its_own_sentence(choice: str) -> None:
    # Neighbouring posts: bet/pass, lose the ante, re-deal, push.
    text = flat(sheet(adjacent=choice))
    others = [c for c in ("bet", "lose", "redeal", "push") if c != choice]
    mine = t("inbetween", f"sheet.adjacent.{choice}", "en", ante=1)
    assert mine in text
    for other in others:
        assert t("inbetween", f"sheet.adjacent.{other}", "en", ante=1) not in text


@pytest.mark.parametrize(
    ("choice", "phrase"),
    [
        ("bet", "a pair pays nothing by itself"),
        ("higher-lower", "higher or lower than the pair"),
        ("win", "A pair wins 5 chips from the pot"),
        ("push", "A pair is a push"),
        ("redeal", "A pair is laid aside"),
        ("split", "A pair may be split"),
    ],
)
def test_each_pair_rule_has_its_own_sentence(choice: str, phrase: str) -> None:
    # Pair posts: per SOURCES.md and seeds 001/002; pair_win=5 shows in the "win" case.
    extra = {"pair_win": 5} if choice == "win" else {}
    assert phrase in flat(sheet(pairs=choice, **extra))


def test_higher_lower_pairs_get_their_own_example() -> None:
    # Seed 002: with a pair, call higher or lower; the same rank again costs double.
    # Posts 7♣ 7♦, higher 2, pot 10: 9♥ wins 2 (pot 8), 5♠ loses 2 (pot 12),
    # 7♠ costs 2 x 2 = 4 (pot 14).
    text = flat(sheet(preset="sheets"))
    assert "With a pair 7♣ 7♦, bet higher 2." in text
    assert "9♥: the call wins, the player gains 2; the pot becomes 8." in text
    assert "5♠: the call loses, the player loses 2; the pot becomes 12." in text
    assert "7♠: it hits a post, the player loses 4; the pot becomes 14." in text


def test_ace_pair_and_ace_third_rules() -> None:
    # Seed 002's ace rules: an ace on a pair of aces costs four times; an ace as third
    # card against any pair loses.
    text = flat(sheet(pairs="higher-lower", ace_pair_multiplier=4, ace_third_loses=True))
    assert "A third ace against a pair of aces costs 4 stakes." in text
    assert "An ace as third card against any other pair loses." in text


def test_banker_sheet_describes_the_dealers_game() -> None:
    # Seed 001: the dealer puts the bank in the pot, gets no cards, plays a set number
    # of rounds and takes what is left; everyone deals once.
    text = flat(sheet(preset="banker", bank=30, rounds=2, players=5))
    assert "they put 30 chips into the pot and play 2 rounds" in text
    assert "every other player (the dealer gets no cards)" in text
    assert "A session is 5 dealer's games of 2 rounds each." in text
    assert "There is no ante." in text


def test_red_dog_sheet_uses_the_pay_table() -> None:
    # Seed 001's casino version: spread odds, trips odds, no pot.
    text = flat(sheet(preset="red-dog", spread_pays=(6, 4, 2, 1), trips_pays=12))
    assert "1 rank 6 to 1, 2 ranks 4 to 1, 3 ranks 2 to 1, 4 or more 1 to 1" in text
    assert "pays 12 to 1" in text
    # Posts 4♣ Q♦ have a spread of 7 ranks (5..J): 4 or more pays 1 to 1.
    assert "the spread is 7" in text
    assert "Third card 9♥: inside, the player gains 1." in text
    assert "pot becomes" not in text


def test_three_posts_sheet_has_the_second_gap() -> None:
    # Seed 001's three posts: a second bet on the second gap, a post there costs three.
    text = flat(sheet(preset="three-posts", second_post_multiplier=4))
    assert "two gaps" in text
    assert "costs 4 stakes" in text
    # Second gap Q♦..7♠, stake 1 (the ante): 7♥ on the post costs 4 x 1, pot 10 -> 14.
    assert "Third card 7♥: it hits a post, the player loses 4; the pot becomes 14." in text


def test_empty_pot_policies() -> None:
    # Guide: an emptied pot ends the session; seed 002: everyone refills it.
    assert "If a bet empties the pot, the session ends at once." in flat(sheet())
    text = flat(sheet(empty_pot="replenish", ante=2))
    assert "everyone antes 2 again to refill it" in text


def test_reshuffle_policies() -> None:
    # Seed 001 "twice through the deck" and dealing on to the end of the deck.
    assert "the whole deck is collected" in flat(sheet())
    assert "when the deck runs out the second time" in flat(
        sheet(reshuffle="twice-through", rounds=50)
    )
    assert "The deck is not collected" in flat(sheet(reshuffle="deck-out"))


def test_dealer_by_draw() -> None:
    # dealer="draw": one card each, the highest deals.
    assert "the highest deals" in flat(sheet(dealer="draw"))
    assert "Seat 3 deals first." in flat(sheet(dealer=2))  # seats count from 1 on screen


def test_changed_options_are_listed() -> None:
    # The version section names the options that differ from the preset.
    assert "Changed from that version: Ante: 2." in flat(sheet(ante=2))
    assert "Changed from that version" not in flat(sheet())


def test_source_variants_are_stated_in_both_languages() -> None:
    # SOURCES.md: everything2 (dealer declares aces), Shemitz (fee per pair of posts),
    # the-game-farm (win your ante back), oinc (the passed card becomes the next post).
    options: dict[str, Any] = {
        "aces": "dealer-declares",
        "post_fee": 2,
        "ante_back": True,
        "passed_card": "next-post",
    }
    en = flat(sheet(**options))
    assert "the dealer declares aces high" in en and "(aces high / aces low)" in en
    assert "that player pays 2 into the pot, bet or pass" in en
    assert "Until you have won a bet, your stake may be at most the ante (1)." in en
    assert "becomes the next player's next post" in en
    pt = flat(sheet(lang="pt", **options))
    assert "o carteador declara os ases altos" in pt and "paga 2 para o pote" in pt
    assert "não pode passar do ante (1)" in pt and "baliza seguinte do próximo jogador" in pt
    plain = flat(sheet())
    assert "declares aces" not in plain and "into the pot, bet or pass" not in plain
    assert "won a bet" not in plain and "set aside face down" not in plain


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        sheet("fr")


_OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "players": st.integers(2, 10),
        "starting_chips": st.integers(1, 500),
        "ante": st.integers(1, 5),
        "rounds": st.integers(1, 20),
        "decks": st.integers(1, 8),
        "post_multiplier": st.integers(1, 5),
        "stake_cap": st.sampled_from(["cover", "chips", "none"]),
        "adjacent": st.sampled_from(["bet", "lose", "redeal", "push"]),
        "pairs": st.sampled_from(["bet", "higher-lower", "win", "push", "redeal", "split"]),
        "aces": st.sampled_from(["high", "first-card", "dealer-declares"]),
        "post_fee": st.integers(0, 2),
        "ante_back": st.booleans(),
        "passed_card": st.sampled_from(["discard", "next-post"]),
        "reshuffle": st.sampled_from(["round", "deck-out", "twice-through"]),
        "first_round_limit": st.sampled_from(["pot", "half-pot", "ante"]),
    },
)


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(PRESETS), overrides=_OVERRIDES)
def test_any_valid_rules_render_a_complete_sheet(preset: str, overrides: dict[str, Any]) -> None:
    # Whatever valid combination is chosen, both languages render all seven sections
    # and state the resolved starting chips and number of decks.
    try:
        rules = Rules.resolve(preset=preset, **overrides)
    except RulesError:
        return
    en, pt = rules_sheet(rules, "en"), rules_sheet(rules, "pt")
    assert en != pt
    for text in (en, pt):
        assert all(f"{i:02d} / " in text for i in range(1, 8))
        assert f" {rules.starting_chips} " in flat(text)
    if rules.decks > 1:
        assert f"{52 * rules.decks}" in en
    assert all(len(line) <= 78 for line in en.splitlines())


def test_a_post_fee_sheet_does_not_call_passing_free() -> None:
    # With a fee per pair of posts (Shemitz) a pass still cost the fee.
    text = flat(sheet(post_fee=1))
    assert "Passing costs nothing beyond the fee already paid" in text
    assert "Passing costs nothing, and" not in text


# One of a thing is said in the singular, in both languages: "1 chip", "1 volta".
ONE_OF_EACH = [
    ({"starting_chips": 1, "rounds": 1}, "starts with 1 chip ", "after 1 complete round."),
    ({"preset": "banker", "bank": 1, "rounds": 1}, "put 1 chip into the pot", "deals 1 round."),
    ({"preset": "red-dog", "rounds": 1}, "lasts 1 deal.", "bank of 1000 chips"),
    ({"pairs": "win", "pair_win": 1}, "A pair wins 1 chip from", "starts with 100 chips"),
    ({"ace_pair_multiplier": 1}, "aces costs 1 stake.", "after 3 complete rounds."),
]
UM_DE_CADA = [
    ({"starting_chips": 1, "rounds": 1}, "começa com 1 ficha ", "após 1 volta completa."),
    ({"preset": "banker", "bank": 1, "rounds": 1}, "põe 1 ficha no pote", "dá 1 volta."),
    ({"preset": "red-dog", "rounds": 1}, "dura 1 distribuição.", "banca de 1000 fichas"),
    ({"pairs": "win", "pair_win": 1}, "ganha logo 1 ficha do", "começa com 100 fichas"),
    ({"ace_pair_multiplier": 1}, "ases custa 1 aposta.", "após 3 voltas completas."),
]


@pytest.mark.parametrize(
    ("lang", "options", "one", "other"),
    [("en", *case) for case in ONE_OF_EACH] + [("pt", *case) for case in UM_DE_CADA],
)
def test_numbers_take_their_plural_forms(
    lang: str, options: dict[str, Any], one: str, other: str
) -> None:
    text = flat(sheet(lang, **options))
    assert one in text and other in text, text
    assert not re.search(r"\b1 (chips|rounds|stakes|fichas|voltas|apostas|distribuições)\b", text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_version_line_names_the_preset_as_players_know_it(preset: str, lang: str) -> None:
    # "Version: Dealer's bank (source: ...)", never the preset's id ("banker")
    text = " ".join(p for _, ps in sheet_sections(Rules.resolve(preset=preset), lang) for p in ps)
    shown = t("web", f"preset.inbetween.{preset}", lang)
    source = t("inbetween", f"sheet.source.{preset}", lang)
    assert t("inbetween", "sheet.preset", lang, preset=shown, source=source) in text
