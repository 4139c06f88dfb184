"""The README's Python examples are true."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run() -> None:
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS, globs={}
    )
    assert result.attempted >= 8 and result.failed == 0


def test_api_doc_examples_run() -> None:
    api = README.parent / "docs" / "api.md"
    result = doctest.testfile(
        str(api), module_relative=False, optionflags=doctest.ELLIPSIS, globs={}
    )
    assert result.attempted >= 3 and result.failed == 0
