"""Compiles the gettext catalogs as the package is built (pyproject.toml holds the rest).

The `.po` files are the source, kept in the repository; the `.mo` files napledger reads are
made from them here, so that `pip install .` and `pip install -e .` both have them without
a compiled file in git. An editable install runs `build_py` too (it copies nothing then),
so the catalogs are compiled beside their `.po` files, where the package reads them.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path(__file__).resolve().parent / "napledger" / "locale"


def compile_catalogs() -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(LOCALE.glob("*/LC_MESSAGES/napledger.po")):
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        compile_catalogs()
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogs})
