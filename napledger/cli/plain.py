"""Output in plain text, for the commands that must answer before Rich could even load.

Rich's console costs more to import than the whole of `napledger variants` may take
(at most 1.6x `import typer`), so the list of variants is aligned by hand.
"""

from collections.abc import Sequence

import typer

from napledger.core.rules import Rules
from napledger.core.rules.texts import bid_name, rule_text
from napledger.core.words import _


def columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows as lines, each column as wide as its widest cell; the last one is not padded."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [
        "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[-1]])
        for row in rows
    ]


def variant_list(all_rules: Sequence[Rules]) -> None:
    rows = [(_("name"), _("game"), _("players"), _("bids"))]
    rows += [
        (
            r.name,
            rule_text(r.title),
            f"{r.min_players}-{r.max_players}",
            ", ".join(bid_name(b.name) for b in r.bids),
        )
        for r in all_rules
    ]
    for line in columns(rows):
        typer.echo(line.rstrip())
    typer.echo("\n" + _("`napledger variants NAME` shows one variant's stake table and settings."))
