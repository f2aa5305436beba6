"""What `import` says: each session brought in (or that would be), each one already here,
and every refusal, for every front end. A session's name always follows its noun
(«партия «пятница»», „partia „piątek”"), so no language has to decline it."""

from __future__ import annotations

from napledger.core.words import _, ngettext


def imported(name: str, records: int) -> str:
    return ngettext(
        "Imported session {name}: {records} deal record.",
        "Imported session {name}: {records} deal records.",
        records,
    ).format(name=name, records=records)


def would_import(name: str, records: int) -> str:
    return ngettext(
        "Would import session {name}: {records} deal record.",
        "Would import session {name}: {records} deal records.",
        records,
    ).format(name=name, records=records)


def dry_run() -> str:
    return _("Nothing was written (--dry-run).")


def already(name: str, here: str) -> str:
    """The evening of session `name` is in this ledger already, as session `here`."""
    if here == name:
        return _(
            "Session {name} is here already; it was not imported again. To import it as "
            "a new session, give --as NAME."
        ).format(name=name)
    return _(
        "Session {name} is here already (as session {here}); it was not imported again. "
        "To import it as a new session, give --as NAME."
    ).format(name=name, here=here)


def nothing_new() -> str:
    return _("Nothing was imported: every session named is here already.")


def name_used(name: str) -> str:
    return _(
        "there is already a session called '{name}'; give --as NAME to import it under another name"
    ).format(name=name)


def as_one() -> str:
    return _("--as names one session: name the one session to import")


def no_such(ref: str) -> str:
    return _("the source has no session '{ref}'").format(ref=ref)


def no_sessions() -> str:
    return _("the source has no sessions to import")


def carried_first(name: str, source: str) -> str:
    """Session `name` carries on the pot of a session that is neither here nor imported."""
    return _(
        "session '{name}' carries on the pot of session '{source}'; import that session "
        "first, or with it"
    ).format(name=name, source=source)


def carried_before(name: str, source: str) -> str:
    """Session `name` carries on the pot of session `source`, which is here as it was before
    its pot was carried (imported while still open, or before it closed that way): the copy
    here is not brought up to date (docs/import.md), a new copy of it is."""
    return _(
        "session '{name}' carries on the pot of session '{source}', but session '{source}' "
        "was imported before its pot was carried; first import session '{source}' again, "
        "with --as NAME"
    ).format(name=name, source=source)


def not_exact(name: str, number: int | None) -> str:
    if number is None:
        return _(
            "session '{name}' could not be made again exactly as it was kept (its closes); "
            "nothing was imported"
        ).format(name=name)
    return _(
        "session '{name}' could not be made again exactly as it was kept (deal {n}); "
        "nothing was imported"
    ).format(name=name, n=number)


def unreadable_records() -> str:
    return _("the records kept in the file cannot be read; nothing was imported")


def not_napledger_workbook(path: str) -> str:
    return _(
        "{path} is not a workbook napledger wrote with its records (export it again with "
        "this napledger); nothing was imported"
    ).format(path=path)


def edited(sheet: str, cell: str, says: object, deals_give: object) -> str:
    """A visible cell of the workbook is not what the deals give: edited by hand. An empty
    cell is said in words (never as None, which no table reads)."""
    if says is None:
        return _(
            "the workbook was changed by hand: sheet '{sheet}', cell {cell} is empty, "
            "the deals give '{give}'; nothing was imported"
        ).format(sheet=sheet, cell=cell, give=deals_give)
    if deals_give is None:
        return _(
            "the workbook was changed by hand: sheet '{sheet}', cell {cell} says '{says}', "
            "the deals leave it empty; nothing was imported"
        ).format(sheet=sheet, cell=cell, says=says)
    return _(
        "the workbook was changed by hand: sheet '{sheet}', cell {cell} says '{says}', "
        "the deals give '{give}'; nothing was imported"
    ).format(sheet=sheet, cell=cell, says=says, give=deals_give)


def not_a_ledger(source: str) -> str:
    return _("{source} is neither a napledger ledger nor a workbook it wrote").format(source=source)


def importing_deals() -> str:
    """The progress bar's label."""
    return _("Importing deals")
