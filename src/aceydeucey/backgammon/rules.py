"""Rules of the backgammon family: Acey-Deucey (default), classic, longgammon and Dutch.

Every option is a field of :class:`BackgammonRules`; a variant is a named
:class:`~aceydeucey.core.rules.Preset` of option values (the preset key is
``variant``).  The engine reads options only, never the variant's name.

Sources (codes from the project's SOURCES.md, detailed in ``docs/backgammon.md``):
BKGM (Backgammon Galore, "American Acey-Deucey", the baseline), GALT and LEE
(rec.games.backgammon posts), WIKI (Wikipedia "Acey-deucey", current and ~2008),
ITAVLI (its "European" version), ZOO, VC11, bgammon (tslocum/bgammon, read from
its behaviour), DUTCH (play65.com "Dutch Backgammon" and onlinecasinoreviews1.com
"Variations in backgammon").  The doubling cube and match play: GNUBG (GNU Backgammon's
manual: the cube, the Crawford rule, the Jacoby rule, beavers, Match ID and ``.mat``),
betting777 and LEE (the cube with Acey-Deucey: per-checker points times the cube).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from aceydeucey.core.errors import RulesError
from aceydeucey.core.rules import Preset, RulesBase, option, refusal

__all__ = ["MAX_CUBE", "VARIANTS", "BackgammonRules"]

Variant = Literal["acey-deucey", "classic", "longgammon", "dutch"]
Start = Literal["off_board", "standard", "long"]
Opening = Literal["reroll_both_dice", "use_opening_dice"]
EntryGate = Literal["none", "doubles_or_acey", "doubles_only", "six"]
BarGate = Literal["none", "doubles_or_acey"]
EnterAllBefore = Literal["nothing", "passing_opp_12pt", "moving_any_entered"]
ExtraRoll = Literal["none", "if_fully_played", "always"]
DoublesChoice = Literal["named", "rolled"]
Remainder = Literal["forfeit", "to_opponent"]
BearOff = Literal["standard_higher", "exact_only"]
HitGate = Literal["none", "after_home_board"]
Scoring = Literal["per_checker", "single", "gammons"]
Cube = Literal["none", "money", "match"]

#: the largest cube there is (gnubg's MAX_CUBE): ``max_cube=None`` stops there
MAX_CUBE = 4096

_ACEY: dict[str, Any] = {}  # every option at its default: the BKGM baseline

_CLASSIC: dict[str, Any] = {
    "start": "standard",
    "opening": "use_opening_dice",
    "acey_deucey": False,
    "scoring": "gammons",
}

_LONG: dict[str, Any] = {**_CLASSIC, "start": "long"}

_DUTCH: dict[str, Any] = {
    "acey_deucey": False,
    "must_enter_all_before": "moving_any_entered",
    "hit_gate": "after_home_board",
    "scoring": "gammons",
}

#: The variants, in the order menus list them.
VARIANTS: Mapping[str, Preset] = MappingProxyType(
    {
        "acey-deucey": Preset(
            "acey-deucey",
            _ACEY,
            "BKGM (American Acey-Deucey; seed 002)",
            "All 15 start off the board; 1-2 earns a named double and another roll; "
            "one point per checker not borne off.",
        ),
        "classic": Preset(
            "classic",
            _CLASSIC,
            "standard backgammon rules (gnubg, OpenSpiel)",
            "Usual starting position, opening roll played by its winner, gammons count.",
        ),
        "longgammon": Preset(
            "longgammon",
            _LONG,
            "seed 002 (LongGammon)",
            "Classic backgammon with all 15 checkers starting on the 24-point.",
        ),
        "dutch": Preset(
            "dutch",
            _DUTCH,
            "DUTCH (play65.com and onlinecasinoreviews1.com 'Variations in backgammon'); "
            "seed 002 names it",
            "All 15 start off the board and must all be entered before any moves; "
            "no hitting until a checker has reached the home board.",
        ),
    }
)


@dataclass(frozen=True)
class BackgammonRules(RulesBase):
    """Every rule option of the backgammon family (defaults: BKGM Acey-Deucey)."""

    GAME: ClassVar[str] = "backgammon"
    PRESETS: ClassVar[Mapping[str, Preset]] = VARIANTS
    DEFAULT_PRESET: ClassVar[str] = "acey-deucey"
    PRESET_KEY: ClassVar[str] = "variant"

    variant: Variant = option(
        "acey-deucey",
        help="the named set of rules",
        source="BKGM, seed 002",
    )
    start: Start = option(
        "off_board",
        help="where the 15 checkers start: off the board, the usual 2-5-3-5 setup, "
        "or all 15 on the 24-point",
        source="BKGM (off_board); standard backgammon; seed 002 LongGammon (long)",
    )
    opening: Opening = option(
        "reroll_both_dice",
        help="after the one-die roll-off, the winner rolls both dice afresh, "
        "or plays the two roll-off dice",
        source="BKGM, LEE, ZOO, bgammon (reroll); standard backgammon (use)",
    )
    entry_gate: EntryGate = option(
        "none",
        help="roll a player needs before their first checker may enter or move",
        source="BKGM (none); WIKI-2008, LEE (doubles_or_acey); WIKI (doubles_only); "
        "Osneller in GALT's thread (six)",
    )
    bar_reentry_gate: BarGate = option(
        "none",
        help="roll needed to bring a hit checker back from the bar",
        source="BKGM (none); LEE (doubles_or_acey)",
    )
    must_enter_all_before: EnterAllBefore = option(
        "nothing",
        help="what unentered checkers forbid: nothing, moving past the opponent's "
        "12-point, or moving any entered checker",
        source="BKGM, WIKI, VC11 (nothing); GALT (passing_opp_12pt); "
        "WIKI-2008, DUTCH (moving_any_entered)",
    )
    bearoff_requires_all_entered: bool = option(
        True,
        help="unentered checkers block bearing off (they are not in the home board)",
        source="BKGM (all fifteen in the home board), bgammon",
    )
    acey_deucey: bool = option(
        True,
        help="a 1-2 roll earns a double of the player's choice and another roll",
        source="BKGM",
    )
    acey_requires_both_played: bool = option(
        True,
        help="the 1-2 bonus needs both the 1 and the 2 played",
        source="BKGM, GALT, LEE, ZOO, bgammon",
    )
    acey_doubles_choice: DoublesChoice = option(
        "named",
        help="the double after a 1-2 is named by the player, or rolled on one die",
        source="BKGM (named); link-csere in MISC (rolled)",
    )
    acey_reroll_requires_full_doubles: bool = option(
        True,
        help="the roll after a 1-2 needs all four of the named doubles played",
        source="BKGM, VOG, ZOO, GALT (True); bgammon (False)",
    )
    acey_chain_limit: int | None = option(
        None,
        min=1,
        max=100,
        help="most 1-2 bonuses in one turn (None: no limit)",
        source="GALT, BKGM (no limit); grokipedia mentions limits",
    )
    natural_doubles_extra_roll: ExtraRoll = option(
        "none",
        help="whether rolled doubles earn another roll",
        source="BKGM, ZOO, bgammon (none); GALT, LEE (if_fully_played); WIKI (always)",
    )
    doubles_plus_complement: bool = option(
        False,
        help="rolled doubles, fully played, are followed by their complement "
        "(the doubles summing to 7 with them)",
        source="ITAVLI European version; Russian backgammon in onlinecasinoreviews1.com",
    )
    unplayable_remainder: Remainder = option(
        "forfeit",
        help="dice that cannot be played are lost, or the opponent plays them",
        source="BKGM (forfeit); LEE (to_opponent)",
    )
    must_use_max_dice: bool = option(
        True,
        help="play as many dice as possible",
        source="BKGM, standard backgammon",
    )
    must_play_higher_die: bool = option(
        True,
        help="when only one of two dice can be played, play the higher",
        source="BKGM, ZOO, standard backgammon",
    )
    bearoff_rule: BearOff = option(
        "standard_higher",
        help="a die higher than every occupied point bears off from the highest, "
        "or only exact numbers bear off",
        source="BKGM (standard_higher); GALT, LEE, bgammon (exact_only)",
    )
    home_board_frozen: bool = option(
        False,
        help="checkers in the home board cannot move within it (only bear off)",
        source="LEE",
    )
    hit_gate: HitGate = option(
        "none",
        help="a player may hit only once a checker of theirs has reached the home board",
        source="DUTCH (after_home_board)",
    )
    scoring: Scoring = option(
        "per_checker",
        help="loser pays one point per checker not borne off, one point, "
        "or 1/2/3 for single/gammon/backgammon",
        source="BKGM, bgammon (per_checker); ZOO (single); standard backgammon (gammons)",
    )
    cube: Cube = option(
        "none",
        help="the doubling cube: none, money play (one game, points times the cube), "
        "or match play (games to the match's length in points)",
        source="seed 002 and BKGM (none for Acey-Deucey); GNUBG (money, match); "
        "betting777, LEE (a cube with Acey-Deucey)",
    )
    match_length: int | None = option(
        None,
        min=1,
        max=99,
        help="points that win a match, a session of games (None: one game)",
        source="GNUBG (N-point matches); bgammon (matches with per-checker points)",
    )
    crawford: bool | None = option(
        None,
        help="the Crawford rule: no doubling in the one game after a player first "
        "reaches one point short of the match (None: on in a match with the cube)",
        source="GNUBG (Crawford rule, on by default; post-Crawford doubling as usual)",
    )
    jacoby: bool = option(
        False,
        help="money play: gammons and backgammons count only once the cube has turned",
        source="GNUBG (Jacoby rule)",
    )
    beavers: bool = option(
        False,
        help="money play: a player who is doubled may take and redouble at once, "
        "keeping the cube (a beaver)",
        source="GNUBG (beavers)",
    )
    max_cube: int | None = option(
        None,
        min=2,
        max=4096,
        help="the highest value the cube may reach, a power of two (None: 4096, gnubg's own limit)",
        source="GNUBG (cube limit, e.g. 64; its largest cube is 4096)",
    )

    @property
    def cube_limit(self) -> int:
        """The highest value the cube may reach: ``max_cube``, or gnubg's 4096."""
        return self.max_cube or MAX_CUBE

    @property
    def is_match(self) -> bool:
        """Whether a game is one of a match (a session of games to ``match_length``)."""
        return self.match_length is not None

    @property
    def crawford_rule(self) -> bool:
        """Whether the Crawford rule holds: a match with the cube, unless turned off."""
        return self.cube == "match" and self.crawford is not False

    def check(self) -> None:
        """Reject contradictory combinations, naming both options."""
        if self.start != "off_board":
            for name, default in (("entry_gate", "none"), ("must_enter_all_before", "nothing")):
                if getattr(self, name) != default:
                    raise refusal(
                        self,
                        "bg.rules.needs_off_board",
                        name,
                        "start",
                        option=name,
                        value=getattr(self, name),
                    )
        if not self.acey_deucey:
            acey_defaults: tuple[tuple[str, object], ...] = (
                ("acey_doubles_choice", "named"),
                ("acey_chain_limit", None),
                ("acey_reroll_requires_full_doubles", True),
                ("acey_requires_both_played", True),
            )
            for acey_name, acey_default in acey_defaults:
                if getattr(self, acey_name) != acey_default:
                    raise refusal(
                        self,
                        "bg.rules.needs_acey",
                        acey_name,
                        "acey_deucey",
                        option=acey_name,
                        value=getattr(self, acey_name),
                    )
        if self.unplayable_remainder == "to_opponent" and not self.must_use_max_dice:
            raise refusal(
                self, "bg.rules.remainder_free_choice", "unplayable_remainder", "must_use_max_dice"
            )
        self._check_cube()

    def _check_cube(self) -> None:
        """The cube's options that contradict each other, naming both."""
        if self.cube == "match" and self.match_length is None:
            raise refusal(self, "bg.rules.match_needs_length", "cube", "match_length")
        if self.cube == "money" and self.match_length is not None:
            raise self._cube_contradiction("match_length")
        money_only = (("jacoby", False), ("beavers", False))
        for name, default in money_only:
            if getattr(self, name) != default and self.cube != "money":
                raise self._cube_contradiction(name)
        if self.crawford is not None and self.cube != "match":
            raise self._cube_contradiction("crawford")
        if self.max_cube is not None:
            if self.cube == "none":
                raise self._cube_contradiction("max_cube")
            if self.max_cube & (self.max_cube - 1):
                raise refusal(self, "bg.rules.max_cube_power", "max_cube", value=self.max_cube)

    def _cube_contradiction(self, name: str) -> RulesError:
        """Option ``name`` set where the cube (``cube``) leaves it nothing to do."""
        return refusal(
            self,
            "bg.rules.cube_contradiction",
            name,
            "cube",
            option=name,
            value=getattr(self, name),
            other="cube",
            other_value=self.cube,
        )
