"""Golden playthroughs: every game x preset replayed now must match its stored transcript.

A failure shows the diff and the command that regenerates the files: regenerate only
when the change in what the engines show is intended, and review the diff.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "playthroughs.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("playthroughs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["playthroughs"] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


playthroughs = _load()


def test_every_game_and_preset_has_a_transcript() -> None:
    games = {spec.game for spec in playthroughs.SPECS}
    assert games == {"inbetween", "backgammon", "aces-in-the-pot"}
    names = [spec.name for spec in playthroughs.SPECS]
    assert len(names) == len(set(names)) == 10
    stored = {p.stem for p in playthroughs.FOLDER.glob("*.txt")}
    assert stored == set(names), "stale or missing transcripts: " + playthroughs.COMMAND


def test_the_transcripts_stay_small() -> None:
    total = sum(spec.path.stat().st_size for spec in playthroughs.SPECS)
    assert total < 400_000, f"{total:,} bytes: shorten the playthroughs"


@pytest.mark.parametrize("spec", playthroughs.SPECS, ids=lambda spec: spec.name)
def test_the_playthrough_matches_its_transcript(spec: Any) -> None:
    text = playthroughs.generate(spec)
    lines = playthroughs.diff(spec, text)
    if lines:
        shown = "\n".join(lines[:60]) + ("\n..." if len(lines) > 60 else "")
        pytest.fail(
            f"{spec.name} differs from its transcript:\n{shown}\n\n"
            f"If the change is intended, regenerate: {playthroughs.COMMAND} {spec.name}",
            pytrace=False,
        )


def test_a_changed_transcript_fails_with_a_readable_diff(tmp_path: Path) -> None:
    spec = next(s for s in playthroughs.SPECS if s.game == "aces-in-the-pot")
    text = playthroughs.generate(spec)
    assert text == playthroughs.generate(spec)  # seeded: the same every time
    tampered = text.replace("action: ", "action:  ", 1)
    moved = playthroughs.Spec(spec.name, spec.game, spec.options, spec.seed, spec.steps)
    original = playthroughs.FOLDER
    try:
        playthroughs.FOLDER = tmp_path
        moved.path.write_text(tampered, encoding="utf-8")
        lines = playthroughs.diff(moved, text)
    finally:
        playthroughs.FOLDER = original
    assert any(line.startswith("-action:  ") for line in lines)
    assert any(line.startswith("+action: ") for line in lines)
    assert playthroughs.main(["--check", spec.name]) == 0
