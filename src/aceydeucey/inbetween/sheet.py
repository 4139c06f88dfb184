"""The In-Between rules sheet: resolved ``Rules`` → readable text, in English or Portuguese.

The sheet follows the guide's structure (seed 000, and seed 003 in Portuguese):

1. selected version, 2. preparation, 3. round and posts, 4. bet and settlement,
5. next round, 6. session end, 7. worked example.

Every sentence is chosen and filled from the options (stake cap, post multiplier,
ace rule, neighbouring and pair posts, rounds, ante, players, decks, banking,
Red Dog odds, three posts...), never from the preset's name.  The worked example
is computed with the engine's own settlement (``inbetween.settle``): posts 4♣ and
Q♦, a stake of 2 (or the smallest allowed) and a pot of 10, then the third cards
9♥ (inside), K♠ (outside) and Q♠ (on a post) under these rules.

Messages live in the ``inbetween`` locale catalogs under ``sheet.*`` keys.
"""

from __future__ import annotations

import textwrap

from aceydeucey.cards import Card
from aceydeucey.core.errors import check_lang
from aceydeucey.core.rules import option_in_words
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import Call, settle, spread, worst_loss
from aceydeucey.locale import t

__all__ = ["SECTION_KEYS", "cover_limits", "rules_sheet", "sheet_sections"]

#: Catalog keys of the section headings, in the order they appear.
SECTION_KEYS = (
    "sheet.h.version",
    "sheet.h.preparation",
    "sheet.h.round",
    "sheet.h.bet",
    "sheet.h.next",
    "sheet.h.end",
    "sheet.h.example",
)

_DOMAIN = "inbetween"


def rules_sheet(rules: Rules, lang: str = "en", *, width: int = 78) -> str:
    """The whole sheet as plain text, paragraphs wrapped to ``width`` columns."""
    lines = [_t("sheet.title", check_lang(lang)), ""]
    for number, (heading, sentences) in enumerate(sheet_sections(rules, lang), 1):
        lines.append(f"{number:02d} / {heading}")
        for paragraph in sentences:
            lines.extend(
                textwrap.wrap(paragraph, width=width, initial_indent="  ", subsequent_indent="  ")
            )
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def sheet_sections(rules: Rules, lang: str = "en") -> list[tuple[str, list[str]]]:
    """The seven sections: (heading, paragraphs), each paragraph a few sentences."""
    check_lang(lang)
    builders = (_version, _preparation, _round, _bet, _next_round, _end, _example)
    return [
        (_t(key, lang), build(rules, lang))
        for key, build in zip(SECTION_KEYS, builders, strict=True)
    ]


# -- sections -------------------------------------------------------------------


def _version(r: Rules, lang: str) -> list[str]:
    preset = r.PRESETS[r.preset]
    del preset  # the sheet names the source as players know it, not by its seed file
    source = _t(f"sheet.source.{r.preset}", lang)
    # the preset by the name players know it by (the lobby's and the table's), not its id
    name = t("web", f"preset.{r.GAME}.{r.preset}", lang)
    out = [_t("sheet.intro", lang), _t("sheet.preset", lang, preset=name, source=source)]
    changes = r.changes()
    if changes:
        shown = "; ".join(option_in_words(r, name, lang) for name, _ in changes)
        out.append(_t("sheet.changed", lang, changes=shown))
    if r.banking == "shared":
        banking = _t("sheet.banking.shared", lang)
    elif r.banking == "dealer":
        banking = _t(
            "sheet.banking.dealer",
            lang,
            bank=_n("chips", lang, r.bank),
            rounds=_n("rounds", lang, r.rounds),
        )
    else:
        banking = _t("sheet.banking.house", lang, bank=_n("chips", lang, r.bank))
    aces = _t("sheet.aces." + r.aces.replace("-", "_"), lang)
    out.append(f"{banking} {aces}")
    return out


def _preparation(r: Rules, lang: str) -> list[str]:
    house = r.banking == "house"
    sentences = [_t("sheet.players.house" if house else "sheet.players", lang, players=r.players)]
    if r.decks == 1:
        sentences.append(_t("sheet.decks.one", lang))
    else:
        sentences.append(_t("sheet.decks.many", lang, decks=r.decks, cards=52 * r.decks))
    sentences.append(_t("sheet.ranks", lang))
    sentences.append(_t("sheet.chips", lang, chips=_n("chips", lang, r.starting_chips)))
    sentences.append(_ante_sentence(r, lang))
    if house:
        sentences.append(_t("sheet.dealer.house", lang))
        return [" ".join(sentences)]
    if r.dealer == "draw":
        sentences.append(_t("sheet.dealer.draw", lang))
    else:
        name = _t("sheet.seat_name", lang, seat=r.dealer + 1)  # seats count from 1 on screen
        sentences.append(_t("sheet.dealer.seat", lang, name=name))
    sentences.append(_t("sheet.shuffle", lang))
    return [" ".join(sentences)]


def _round(r: Rules, lang: str) -> list[str]:
    first: list[str] = []
    if r.deal == "first-around":
        whom = _t("sheet.whom.all" if r.dealer_plays else "sheet.whom.others", lang)
        first.append(_t("sheet.deal.first_around", lang, whom=whom))
    elif r.deal == "both-at-turn":
        first.append(_t("sheet.deal.both_at_turn", lang))
    elif r.deal == "both-around":
        first.append(_t("sheet.deal.both_around", lang))
    else:
        first.append(_t("sheet.deal.common", lang))
    if r.deal != "common" and (r.dealer_plays or r.deal != "first-around"):
        first.append(_t("sheet.dealer_plays" if r.dealer_plays else "sheet.dealer_no_cards", lang))
    if r.three_posts:
        first.append(_t("sheet.three_posts", lang))
    first.append(_t("sheet.interval", lang))
    if r.aces == "first-card":
        key = "sheet.ace_call" if r.deal == "first-around" else "sheet.ace_call_after"
        first.append(_t(key, lang))
    if r.passed_card == "next-post":
        first.append(_t("sheet.passed_card", lang))
    if r.post_fee:
        first.append(_t("sheet.post_fee", lang, fee=r.post_fee))
    second = [
        _t(f"sheet.adjacent.{r.adjacent}", lang, ante=r.ante),
        _pairs_sentence(r, lang),
    ]
    return [" ".join(first), " ".join(second)]


def _bet(r: Rules, lang: str) -> list[str]:
    if r.banking == "house":
        pays = r.spread_pays
        return [
            _t("sheet.house.raise", lang),
            _t("sheet.house.pays", lang, a=pays[0], b=pays[1], c=pays[2], d=pays[3]),
        ]
    if r.ante_to_play:
        pass_key = "sheet.pass.forfeit"
    elif r.post_fee:
        pass_key = "sheet.pass.fee"  # the fee is paid before deciding, pass or bet
    else:
        pass_key = "sheet.pass.free"
    first = [_t(pass_key, lang)]
    low = (
        _t("sheet.min.ante", lang, ante=r.ante)
        if r.min_stake == "ante"
        else _t("sheet.min.one", lang)
    )
    first.append(_t("sheet.stake.range", lang, min=low, max=_t("sheet.max.pot", lang)))
    if r.first_round_limit == "half-pot":
        first.append(_t("sheet.first_round.half_pot", lang))
    elif r.first_round_limit == "ante":
        first.append(_t("sheet.first_round.ante", lang, ante=r.ante))
    if r.round_limits:
        limits = ", ".join(str(limit) for limit in r.round_limits)
        first.append(_t("sheet.round_limits", lang, limits=limits, n=len(r.round_limits)))
    if r.ante_back:
        first.append(_t("sheet.ante_back", lang, ante=r.ante))
    first.append(_cap_sentence(r, lang))
    first.append(_t("sheet.no_stake", lang))
    second = [_t("sheet.settle.inside", lang), _t("sheet.settle.outside", lang)]
    if r.post_multiplier == 1:
        second.append(_t("sheet.settle.post_one", lang))
    else:
        second.append(_t("sheet.settle.post_n", lang, mult=r.post_multiplier))
    if r.ace_pair_multiplier:
        second.append(
            _t("sheet.settle.ace_pair", lang, mult=_n("stakes", lang, r.ace_pair_multiplier))
        )
    if r.ace_third_loses:
        second.append(_t("sheet.settle.ace_third", lang))
    if r.three_posts:
        second.append(
            _t(
                "sheet.settle.second_gap",
                lang,
                ante=r.ante,
                mult=_n("stakes", lang, r.second_post_multiplier),
            )
        )
    second.append(_t("sheet.settle.separate", lang))
    return [" ".join(first), " ".join(second)]


def _next_round(r: Rules, lang: str) -> list[str]:
    sentences = [_t("sheet.next.discard", lang)]
    needed = _cards_per_round(r)
    if r.reshuffle == "round":
        if needed is not None:
            sentences.append(_t("sheet.next.cards", lang, cards=needed, total=52 * r.decks))
        if r.banking == "house":
            sentences.append(_t("sheet.next.round_house", lang))
        elif r.banking == "dealer":
            sentences.append(
                _t("sheet.next.round_banker", lang, rounds=_n("rounds", lang, r.rounds))
            )
        elif r.dealer_plays:
            sentences.append(_t("sheet.next.round", lang))
        else:
            sentences.append(_t("sheet.next.round_last", lang))
    elif r.reshuffle == "deck-out":
        sentences.append(_t("sheet.next.deck_out", lang))
    else:
        sentences.append(_t("sheet.next.twice", lang))
    if r.ante and r.ante_each_round and not r.ante_to_play and r.banking != "house":
        sentences.append(_t("sheet.next.ante", lang, ante=r.ante))
    if r.banking == "dealer":
        sentences.append(_t("sheet.next.banker", lang, rounds=_n("rounds", lang, r.rounds)))
    return [" ".join(sentences)]


def _end(r: Rules, lang: str) -> list[str]:
    sentences: list[str] = []
    if r.banking == "house":
        sentences.append(_t("sheet.end.house_rounds", lang, rounds=_n("deals", lang, r.rounds)))
    else:
        if r.empty_pot == "end":
            sentences.append(_t("sheet.end.empty_end", lang))
        elif r.empty_pot == "replenish":
            sentences.append(_t("sheet.end.empty_replenish", lang, ante=r.ante))
        else:
            sentences.append(_t("sheet.end.empty_next_dealer", lang))
        if r.banking == "dealer":
            sentences.append(
                _t(
                    "sheet.end.dealer_games",
                    lang,
                    games=_n("dealer_games", lang, r.total_dealer_games),
                    rounds=_n("rounds", lang, r.rounds),
                )
            )
        else:
            key = "sheet.end.rounds" if r.empty_pot == "end" else "sheet.end.rounds_plain"
            sentences.append(_t(key, lang, rounds=_n("complete_rounds", lang, r.rounds)))
            if r.ante and r.ante_each_round:
                sentences.append(_t("sheet.end.unpayable", lang))
            sentences.append(_t("sheet.end.split", lang))
    sentences.append(_t("sheet.end.winner", lang))
    if r.banking == "house":
        sentences.append(_t("sheet.end.house_no_debt", lang))
    else:
        sentences.append(_t("sheet.end.debt" if r.allows_debt else "sheet.end.no_debt", lang))
    return [" ".join(sentences)]


def _example(r: Rules, lang: str) -> list[str]:
    a, b = Card.from_text("4C"), Card.from_text("QD")
    thirds = [Card.from_text(c) for c in ("9H", "KS", "QS")]
    posts = (a.rank, b.rank)
    paragraphs: list[str] = []
    if r.banking == "house":
        stake = r.ante
        lines = [
            _t(
                "sheet.example.setup_house",
                lang,
                a=a.symbol(),
                b=b.symbol(),
                spread=spread(posts),
                stake=stake,
            )
        ]
        for card in thirds:
            lines.append(_case(r, lang, posts, "between", card, stake, pot=None))
        paragraphs.append(" ".join(lines))
    else:
        stake = max(2, r.ante if r.min_stake == "ante" else 1)
        pot = max(10, stake)
        lines = [_t("sheet.example.setup", lang, a=a.symbol(), b=b.symbol(), stake=stake, pot=pot)]
        for card in thirds:
            lines.append(_case(r, lang, posts, "between", card, stake, pot=pot))
        paragraphs.append(" ".join(lines))
        if r.pairs == "higher-lower":
            p1, p2 = Card.from_text("7C"), Card.from_text("7D")
            lines = [_t("sheet.example.pair", lang, a=p1.symbol(), b=p2.symbol(), stake=stake)]
            for text in ("9H", "5S", "7S"):
                lines.append(_case(r, lang, (7, 7), "higher", Card.from_text(text), stake, pot=pot))
            paragraphs.append(" ".join(lines))
        if r.three_posts:
            c = Card.from_text("7S")
            second = max(r.ante, 1)
            lines = [_t("sheet.example.second_gap", lang, b=b.symbol(), c=c.symbol(), stake=second)]
            for text in ("9H", "7H"):
                lines.append(
                    _case(
                        r,
                        lang,
                        (b.rank, c.rank),
                        "between",
                        Card.from_text(text),
                        second,
                        pot=pot,
                        second_gap=True,
                    )
                )
            paragraphs.append(" ".join(lines))
    paragraphs.append(_t("sheet.example.suits", lang))
    return paragraphs


# -- helpers --------------------------------------------------------------------


def _t(key: str, lang: str, **values: object) -> str:
    return t(_DOMAIN, key, lang, **values)


def _n(what: str, lang: str, count: int) -> str:
    """A number with its noun, in the plural form its language gives it (``1 chip``)."""
    return t(_DOMAIN, f"sheet.n.{what}", lang, count=count)


def _ante_sentence(r: Rules, lang: str) -> str:
    if r.ante == 0:
        return _t("sheet.ante.none", lang)
    if r.banking == "house":
        return _t("sheet.ante.house", lang, ante=r.ante)
    if r.ante_to_play:
        return _t("sheet.ante.to_play", lang, ante=r.ante)
    who = "all" if r.dealer_plays else "players"
    when = "round" if r.ante_each_round else "once"
    return _t(f"sheet.ante.{when}_{who}", lang, ante=r.ante)


def _pairs_sentence(r: Rules, lang: str) -> str:
    key = "sheet.pairs." + r.pairs.replace("-", "_")
    return _t(
        key,
        lang,
        mult=r.pair_match_multiplier,
        chips=_n("chips", lang, r.pair_win),
        ante=r.ante,
        odds=r.trips_pays,
    )


def cover_limits(r: Rules) -> list[tuple[str, int]]:
    """Under ``stake_cap="cover"``: each kind of posts with the stakes its worst loss costs.

    The stake is at most one's chips divided by that number (the engine's
    ``settle.stake_limits``); kinds that cost the same are merged, the first kept.
    """
    ordinary = worst_loss(r, (4, 12), "between")
    kinds: list[tuple[str, int]] = []
    if r.three_posts:
        kinds.append(("first_gap", ordinary))
        kinds.append(("second_gap", worst_loss(r, (4, 12), "between", second_gap=True)))
    else:
        kinds.append(("ordinary", ordinary))
    if r.pairs in ("bet", "higher-lower", "split"):
        call: Call = "higher" if r.pairs == "higher-lower" else "between"
        kinds.append(("pair", worst_loss(r, (7, 7), call)))
        kinds.append(("ace_pair", worst_loss(r, (14, 14), call)))
    merged: list[tuple[str, int]] = []
    for kind, mult in kinds:
        if kind in ("pair", "ace_pair") and any(m == mult for _, m in merged):
            continue
        merged.append((kind, mult))
    return merged


def _limit_words(mult: int, lang: str) -> str:
    if mult == 1:
        return _t("sheet.cap.limit.all", lang)
    if mult == 2:
        return _t("sheet.cap.limit.half", lang)
    return _t("sheet.cap.limit.n", lang, mult=mult)


def _cap_sentence(r: Rules, lang: str) -> str:
    if r.stake_cap == "chips":
        return _t("sheet.cap.chips", lang)
    if r.stake_cap == "none":
        return _t("sheet.cap.none", lang)
    limits = cover_limits(r)
    if len(limits) == 1:
        worst = limits[0][1]
        if worst == 1:
            return _t("sheet.cap.cover_all", lang)
        if worst == 2:
            return _t("sheet.cap.cover_half", lang, mult=worst)
        return _t("sheet.cap.cover_n", lang, mult=worst)
    parts = [_t(f"sheet.cap.part.{kind}", lang, limit=_limit_words(m, lang)) for kind, m in limits]
    return _t("sheet.cap.cover_parts", lang, parts="; ".join(parts))


def _cards_per_round(r: Rules) -> int | None:
    """The most cards one round can use, when that is fixed (no re-deals, no splits)."""
    if r.adjacent == "redeal" or r.pairs in ("redeal", "split"):
        return None
    if r.banking == "house":
        return 3
    seats = r.players if r.dealer_plays else r.players - 1
    return seats * (5 if r.three_posts else 3)


def _case(
    r: Rules,
    lang: str,
    posts: tuple[int, int],
    call: Call,
    card: Card,
    stake: int,
    *,
    pot: int | None,
    second_gap: bool = False,
) -> str:
    result = settle(r, posts, call, card.rank, second_gap=second_gap)
    delta = result.delta(stake)
    outcome_key = f"sheet.outcome.{result.outcome}"
    try:
        outcome = _t(outcome_key, lang)
    except KeyError:
        outcome = result.outcome
    verb = _t(
        "sheet.example.gains"
        if delta > 0
        else "sheet.example.loses"
        if delta < 0
        else "sheet.example.breaks_even",
        lang,
    )
    if pot is None:
        return _t(
            "sheet.example.case_house",
            lang,
            card=card.symbol(),
            outcome=outcome,
            verb=verb,
            amount=abs(delta),
        )
    return _t(
        "sheet.example.case",
        lang,
        card=card.symbol(),
        outcome=outcome,
        verb=verb,
        amount=abs(delta),
        pot=pot - delta,
    )
