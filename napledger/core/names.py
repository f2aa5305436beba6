"""Player names as people type them at a noisy table: trimmed, case-insensitive, forgiving."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

from napledger.core.errors import NapError
from napledger.core.ledger import POT
from napledger.core.rules.model import fold
from napledger.core.vocabulary import word_key
from napledger.core.words import N_, _

MAX_NAME = 40
MAX_NOTE = 200


def clean_text(raw: str, what: str, limit: int = MAX_NAME) -> str:
    """Text fit to store (a session name, a currency, a note): trimmed, inner spaces
    collapsed, no control characters."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise NapError(_("a {what} cannot be empty").format(what=_(what)))
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise NapError(
            _("the {what} {name!r} has control characters in it").format(what=_(what), name=name)
        )
    if not fold(name):  # a lone accent can be stored but never typed again to match
        raise NapError(
            _("the {what} '{name}' has only accent marks, no letters").format(
                what=_(what), name=name
            )
        )
    if len(name) > limit:
        raise NapError(
            _("the {what} '{name}'… is longer than {limit} characters").format(
                what=_(what), name=name[:20], limit=limit
            )
        )
    return name


def clean_player(raw: str) -> str:
    """A player's name fit to store: clean text that is not the pot and holds no comma."""
    name = clean_text(raw, N_("player name"))
    if fold(name) == POT:
        raise NapError(_("'pot' is the pot's account; choose another player name"))
    if "," in name:
        raise NapError(_("a player name cannot contain a comma: '{name}'").format(name=name))
    return name


def clean_note(raw: str) -> str | None:
    """A deal's note; blank means none (amend's `--note ""` clears it)."""
    return clean_text(raw, N_("note"), MAX_NOTE) if raw.strip() else None


def match_player(typed: str, players: Iterable[str], where: str = N_("in this session")) -> str:
    """The one player `typed` means: exact (any case), else a unique prefix."""
    candidates = list(players)
    key = word_key(typed)
    if not key:
        raise NapError(_("a player name cannot be empty"))
    shown = typed if len(typed) <= MAX_NAME else typed[:20] + "…"
    # The name as stored (any case) first; then `pawel` finds Paweł, but with both Paweł
    # and Pawel seated it is refused, never guessed.
    exact = [p for p in candidates if fold(p) == fold(typed)]
    exact = exact or [p for p in candidates if word_key(p) == key]
    if len(exact) > 1:
        message = _("'{typed}' could be {players}; type the name as it is written")
        raise NapError(message.format(typed=shown, players=", ".join(exact)))
    if exact:
        return exact[0]
    starts = [p for p in candidates if word_key(p).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise NapError(
            _("'{name}' could be {players}; type more of the name").format(
                name=shown, players=", ".join(starts)
            )
        )
    near = difflib.get_close_matches(key, [fold(p) for p in candidates], n=1, cutoff=0.6)
    hint = next(
        (
            _("; did you mean {player}?").format(player=p)
            for p in candidates
            if near and fold(p) == near[0]
        ),
        "",
    )
    seated = ", ".join(candidates) or _("nobody")
    raise NapError(
        _("no player '{name}' {where} (players: {players}){hint}").format(
            name=shown, where=_(where), players=seated, hint=hint
        )
    )
