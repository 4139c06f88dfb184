"""Golden playthroughs (OpenSpiel style): one seeded game per game x preset, step by step.

Each transcript under ``tests/playthroughs/`` follows one seeded game through the public
contract only (``load_game``, ``State``'s methods, ``observation``), recording at every
step the state's ``str``, the player to act, the legal actions or chance's outcomes with
their exact probabilities (grouped by probability), every view as JSON and the action
applied.  A change in any engine that alters what a player or a spectator sees shows up as
a diff of these files.

Views are written exactly but compactly: the spectator's view in full at step 0 and then
the keys that changed since the step before (``"(removed)"`` lists keys that went away);
each seat's view as the keys in which it differs from the spectator's view of the same
step, which is precisely what that seat alone may see (or, where a game gives no
spectator view, as the keys changed since that seat's view of the step before).

    python scripts/playthroughs.py            # regenerate every transcript
    python scripts/playthroughs.py --check    # diff against the files; exit 1 on a change
    python scripts/playthroughs.py aces-in-the-pot-3p   # only the named ones

Chance's outcomes come from ``Seeded(seed)``; a seat's decision is drawn from the legal
actions by ``random.Random(seed)``.  A transcript stops at the end of the game or after
``steps`` actions.  A view the contract cannot give yet is written as the error it raises
(``<raises TypeError: ...>``), so the file still pins the behaviour down.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "playthroughs"
COMMAND = "python scripts/playthroughs.py"


@dataclass(frozen=True)
class Spec:
    """One transcript: a game, its options, the seed and the number of steps at most."""

    name: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 1
    steps: int = 150

    @property
    def path(self) -> Path:
        return FOLDER / f"{self.name}.txt"


SPECS: tuple[Spec, ...] = (
    *(
        Spec(f"inbetween-{preset}", "inbetween", {"preset": preset, "players": 3}, steps=30)
        for preset in ("guide", "banker", "sheets", "red-dog", "three-posts")
    ),
    *(
        Spec(f"backgammon-{variant}", "backgammon", {"variant": variant}, steps=20)
        for variant in ("acey-deucey", "classic", "longgammon", "dutch")
    ),
    Spec("aces-in-the-pot-3p", "aces-in-the-pot", {"players": 3}, seed=7),
)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)


def _view(state: Any, seat: int | None) -> dict[str, Any] | str:
    try:
        view = state.observation(seat)
    except Exception as exc:  # a view the contract cannot give yet: pin the error down
        return f"<raises {type(exc).__name__}: {exc}>"
    return json.loads(_json(view))  # the JSON a client would receive


_MISSING = object()


def _delta(view: dict[str, Any] | str, base: dict[str, Any] | str | None) -> str:
    """``view`` as the keys that differ from ``base`` (in full when there is no base)."""
    if isinstance(view, str):
        return view
    if base is None or isinstance(base, str):
        return _json(view)
    changed: dict[str, Any] = {k: v for k, v in view.items() if base.get(k, _MISSING) != v}
    removed = [k for k in base if k not in view]
    if removed:
        changed["(removed)"] = removed
    return _json(changed)


def _outcomes(outcomes: Sequence[tuple[Any, Fraction]]) -> str:
    """``1/36: 6-6 5-5 ... | 1/18: 6-5 ...``: outcomes grouped by probability, in order."""
    groups: dict[Fraction, list[str]] = {}
    for action, p in outcomes:
        groups.setdefault(p, []).append(str(action))
    return " | ".join(f"{p}: {' '.join(actions)}" for p, actions in groups.items())


def _info(game: Any) -> str:
    try:
        info = game.info
    except Exception as exc:
        return f"<raises {type(exc).__name__}: {exc}>"
    return _json({k: str(v) if isinstance(v, Fraction) else v for k, v in vars(info).items()})


def _indent(text: str) -> str:
    return "\n".join(f"  {line}".rstrip() for line in text.splitlines())


def generate(spec: Spec) -> str:
    """The transcript of ``spec``, as text."""
    from aceydeucey import load_game
    from aceydeucey.core.chance import Seeded

    game = load_game(spec.game, **spec.options)
    chance = Seeded(spec.seed)
    rng = random.Random(spec.seed)
    seats = game.num_players
    out = [
        f"# Playthrough {spec.name}: regenerate with `{COMMAND} {spec.name}`",
        f"game: {spec.game}",
        f"options: {_json(spec.options)}",
        f"seed: {spec.seed}",
        f"rules: {_json(game.rules.to_dict())}",
        f"info: {_info(game)}",
        f"num_players: {seats}",
    ]
    state = game.new_initial_state()
    step = 0
    previous: list[dict[str, Any] | str | None] = [None] * (seats + 1)
    while True:
        player = state.current_player()
        out.append("")
        out.append(f"## step {step}")
        out.append("state:")
        out.append(_indent(str(state)))
        out.append(f"current_player: {player}")
        if state.is_chance_node():
            out.append(f"chance_actor: {state.chance_actor()}")
            out.append(f"chance_outcomes: {_outcomes(state.chance_outcomes())}")
        else:
            out.append(f"legal_actions: {_json([str(a) for a in state.legal_actions()])}")
        public = _view(state, None)
        label = "in full" if previous[seats] is None else "changed"
        out.append(f"observation[spectator] {label}: {_delta(public, previous[seats])}")
        for seat in range(seats):
            view = _view(state, seat)
            if isinstance(public, dict):
                out.append(f"observation[{seat}] beyond the spectator's: {_delta(view, public)}")
            else:
                label = "in full" if previous[seat] is None else "changed"
                out.append(f"observation[{seat}] {label}: {_delta(view, previous[seat])}")
            previous[seat] = view
        previous[seats] = public
        if state.is_terminal():
            outcome = state.outcome()
            out.append(f"returns: {_json([str(r) for r in state.returns()])}")
            out.append(f"outcome: {_json(outcome.to_dict() if outcome is not None else None)}")
            break
        if step >= spec.steps:
            out.append(f"(stopped after {spec.steps} steps)")
            break
        if state.is_chance_node():
            action = chance.choose(state)
        else:
            legal = list(state.legal_actions())
            action = legal[rng.randrange(len(legal))]
        out.append(f"action: {action}")
        state = state.apply(action)
        step += 1
    return "\n".join(out) + "\n"


def diff(spec: Spec, text: str) -> list[str]:
    """The unified diff of the stored transcript against ``text`` (empty when equal)."""
    stored = spec.path.read_text(encoding="utf-8") if spec.path.exists() else ""
    return list(
        difflib.unified_diff(
            stored.splitlines(),
            text.splitlines(),
            fromfile=f"{_shown(spec.path)} (stored)",
            tofile=f"{spec.name} (generated now)",
            lineterm="",
        )
    )


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="only these transcripts (default: all)")
    parser.add_argument("--check", action="store_true", help="diff, write nothing")
    args = parser.parse_args(argv)
    known = {spec.name: spec for spec in SPECS}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown transcript(s) {', '.join(unknown)}; known: {', '.join(known)}")
    chosen = [known[n] for n in args.names] if args.names else list(SPECS)
    changed = 0
    for spec in chosen:
        text = generate(spec)
        lines = diff(spec, text)
        if args.check:
            if lines:
                changed += 1
                print("\n".join(lines[:80]))
            continue
        FOLDER.mkdir(parents=True, exist_ok=True)
        spec.path.write_text(text, encoding="utf-8")
        print(f"{_shown(spec.path)}: {len(text.encode()):,} bytes")
    if args.check and changed:
        print(f"{changed} transcript(s) differ; regenerate with: {COMMAND}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    sys.exit(main())
