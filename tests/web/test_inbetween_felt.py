"""In-Between's felt, drawn by its module alone: each hand's result is its own.

The count of cards seen starts again with each shuffle, so two hands can settle with the
same count, the same seat and the same third card; the felt must still show the second
hand's result (and turn its card in again), not keep the first's.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DRAW = """async ([first, second]) => {
  const felt = await import('/static/js/inbetween.js');
  const board = document.createElement('div'), controls = document.createElement('div');
  document.body.append(board);
  const shown = [];
  for (const [seq, outcome, delta] of [first, second]) {
    const obs = {
      posts: [], seen: ['2H', '9C', '5S'], round: 1, pot: 10, chips: [20, 20], dealer: 1,
      current_player: 1, legal_actions: [], phase: 'deal',
      last_event: { kind: 'settle', seat: 0, third: '5S', outcome, delta },
    };
    felt.render(board, controls, {
      obs, seq, legal: [], mine: false, stepEvents: [], interim: false, rules: {},
      names: () => ['Ana', 'Bea'], seats: [],
    });
    const banner = board.querySelector('.ib-result');
    shown.push({
      hand: banner?.dataset.hand, outcome: banner?.dataset.outcome,
      delta: banner ? Number(banner.dataset.delta) : null,
      turned: Boolean(board.querySelector('.third.turned, .third .turned')),
    });
  }
  return shown;
}"""


def test_two_hands_alike_after_a_shuffle_each_show_their_own_result(
    browser: Any, live_server: str
) -> None:
    ctx = browser.new_context(bypass_csp=True)  # the module is imported by a test's script
    try:
        page = ctx.new_page()
        page.goto(f"{live_server}/replay")
        first, second = page.evaluate(DRAW, [[7, "win", 2], [61, "lose", -2]])
    finally:
        ctx.close()
    assert (first["outcome"], first["delta"]) == ("win", 2), first
    assert (second["outcome"], second["delta"]) == ("lose", -2), second
    assert first["hand"] != second["hand"]
    assert second["turned"], "the second hand's third card is turned in like the first's"


DECIDE = """async ([hidden]) => {
  const felt = await import('/static/js/inbetween.js');
  const board = document.createElement('div'), controls = document.createElement('div');
  document.body.append(board);
  // Ana's hand was dealt with everyone's (both around); Bea's hand has just settled and
  // Ana is to decide on her own two cards
  const obs = {
    posts: ['TS', 'QS'], hidden_hand: hidden ? ['TS', 'QS'] : undefined, seen: ['TS', 'QS', 'KS'],
    round: 1, pot: 12, chips: [20, 14], dealer: 1, current_player: 0, phase: 'decide',
    legal_actions: ['pass', 'bet 1'],
    last_event: { kind: 'settle', seat: 1, third: 'KS', outcome: 'outside', delta: -6 },
  };
  felt.render(board, controls, {
    obs, seq: 9, legal: obs.legal_actions, mine: true, me: 0, stepEvents: [], interim: false,
    rules: { hidden }, names: () => ['Ana', 'Bea'], seats: [], act: () => {},
  });
  return {
    cards: [...board.querySelectorAll('svg[data-card]')].map((e) => e.dataset.card),
    banner: board.querySelector('.ib-result')?.dataset.outcome ?? null,
  };
}"""


@pytest.mark.parametrize("hidden", [False, True])
def test_a_player_deciding_sees_their_own_cards_after_the_last_hand(
    browser: Any, live_server: str, hidden: bool
) -> None:
    ctx = browser.new_context(bypass_csp=True)
    try:
        page = ctx.new_page()
        page.goto(f"{live_server}/replay")
        shown = page.evaluate(DECIDE, [hidden])
    finally:
        ctx.close()
    assert sorted(shown["cards"]) == ["QS", "TS"], shown  # not the settled hand's, not backs
    assert shown["banner"] == "outside", shown  # the last hand's result is still said
