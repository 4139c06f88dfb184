"""Build hook: compile the gettext catalogs (``.po``) into ``.mo`` files shipped in the wheel.

The ``.mo`` files are build outputs (ignored by git); ``aceydeucey.locale`` compiles a
``.po`` in memory when its ``.mo`` is missing or older, so a plain checkout works too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "catalogs"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root) / "src" / "aceydeucey" / "locale"
        for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as f:
                catalog = read_po(f, locale="pt_PT" if po.parts[-3] == "pt" else "en")
            with po.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog)
