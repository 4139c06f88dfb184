"""The rules sheet of Aces in the Pot, in English or Portuguese, from resolved rules.

Every sentence comes from the ``aces`` message catalog
(``locale/aces.<lang>.json``); the numbers and the finish rule come from the
rules, so the sheet always describes the game actually being played.
"""

from __future__ import annotations

from aceydeucey.aces_in_the_pot.rules import AcesRules
from aceydeucey.locale import t

__all__ = ["rules_sheet"]


def rules_sheet(rules: AcesRules, lang: str = "en") -> str:
    """The rules of ``rules`` as plain text, one paragraph per rule."""

    def say(key: str, **values: object) -> str:
        return t("aces", key, lang, **values)

    chips = rules.starting_chips
    lines = [
        # the preset by the name players know it by (the lobby's and the table's), not its id
        say("sheet.title", preset=t("web", f"preset.{rules.GAME}.{rules.preset}", lang)),
        "",
        say("sheet.setup", players=rules.players, chips=chips, total=rules.total_chips),
        say("sheet.start")
        if rules.first_roller is None
        else say("sheet.start.fixed", seat=rules.first_roller + 1),  # seats counted from 1
        say("sheet.turn"),
        say("sheet.ace"),
        say("sheet.six"),
        say("sheet.other"),
        say("sheet.one_chip"),
        say("sheet.empty"),
        say("sheet.last_chip"),
        say(f"sheet.finish.{rules.finish}"),
        say("sheet.attempt", rolls=say("sheet.n.rolls", count=rules.finish_rolls)),
        say(f"sheet.six_in_finish.{rules.finish}"),
        say("sheet.result", chips=chips),
        say("sheet.session"),
        say("sheet.match"),
        "",
        # The source named as a reader knows it (the title), not by its seed number.
        say("sheet.source", source=say(f"sheet.source.{rules.preset}")),
    ]
    return "\n".join(lines)
