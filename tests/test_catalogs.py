"""The catalogs are complete: every message the code marks is in the template, translated
into Russian and Polish, none fuzzy, and the compiled catalogs napledger reads are current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from napledger.core import words

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "napledger" / "locale"
# As README (Languages) says: N_ marks a message, NC_ one with its context (a bid's name).
EXTRACT = [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg"]
EXTRACT += ["-k", "N_", "-k", "NC_:1c,2", "--no-location"]


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def ids(catalog: Catalog) -> set[str | tuple[str, ...]]:
    return {m.id for m in catalog if m.id}


def test_the_template_holds_every_message_the_code_marks(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.pot"
    subprocess.run(
        [*EXTRACT, "-o", str(fresh), "napledger"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    extracted = ids(read(fresh))
    kept = ids(read(LOCALE / "napledger.pot"))
    assert extracted - kept == set(), "run pybabel extract (README: Languages)"
    assert kept - extracted == set(), "the template keeps messages the code no longer says"


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_every_message_is_translated_and_none_is_fuzzy(lang: str) -> None:
    template = read(LOCALE / "napledger.pot")
    catalog = read(LOCALE / lang / "LC_MESSAGES" / "napledger.po", locale=lang)
    assert ids(catalog) >= ids(template), "run pybabel update (README: Languages)"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert fuzzy == []
    untranslated = [
        m.id
        for m in catalog
        if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)
    ]
    assert untranslated == []
    # Each placeholder a translation fills is one the English text has.
    for m in catalog:
        if not m.id:
            continue
        english = m.id if isinstance(m.id, tuple) else (m.id,)
        wanted = {name for text in english for name in brace_names(text)}
        for form in m.string if isinstance(m.string, tuple) else (m.string,):
            assert set(brace_names(form)) <= wanted, (m.id, form)
    assert catalog.num_plurals == {"ru": 3, "pl": 3}[lang]


def brace_names(text: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]


@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_the_compiled_catalog_is_the_one_in_the_repository(lang: str) -> None:
    """The .mo napledger reads was made from the .po as it now stands (pip install -e .
    compiles them; README: Languages)."""
    source = read(LOCALE / lang / "LC_MESSAGES" / "napledger.po", locale=lang)
    compiled = words.catalog(lang)
    for m in source:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            assert compiled.ngettext(m.id[0], m.id[1], 5) in m.string
        elif m.context:
            assert compiled.pgettext(m.context, m.id) == m.string
        else:
            assert compiled.gettext(m.id) == m.string


def test_every_word_of_the_shipped_rule_files_is_in_the_catalog() -> None:
    """A preset or book that says something new is marked in core/rules/texts.py."""
    import tomllib

    from napledger.core.rules import texts

    rules = ROOT / "napledger" / "core" / "rules"
    for path in sorted([*rules.glob("presets/*.toml"), *rules.glob("books/*.toml")]):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for key, marked in (("title", texts.TITLES), ("description", texts.DESCRIPTIONS)):
            if key in data:
                assert data[key] in marked, (path.name, key)
        for reason in data.get("absent", {}).values():
            assert reason in texts.ABSENT, (path.name, reason)
        for bid in data.get("bids", []):
            assert bid["name"] in texts.BIDS, (path.name, bid["name"])
