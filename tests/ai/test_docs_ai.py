"""The examples of docs/ai.md run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "ai.md"


@pytest.mark.slow
def test_ai_doc_examples_run() -> None:
    pytest.importorskip("pettingzoo")
    result = doctest.testfile(
        str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS, globs={}
    )
    assert result.attempted >= 10 and result.failed == 0
