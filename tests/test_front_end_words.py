"""The front ends lay out what the core says: few sentences of their own.

A gettext call with a placeholder is a sentence about something (a player, a deal, money,
a session). Those about the evening live in `napledger.core.read`, once; the terminal, the
page (its templates included) and the workbook keep only the few about themselves (a file
written, an option, a server, a line typed in `play`). This counts them, as issue #34 did,
and every placeholder counts: `{player}`, `{word!r}`, `{n:>3}`, `%(num)d`.

Not counted, by judgement: napledger/locale_frame.py, which lies outside the front ends.
It holds Click's and Typer's own words (the frame of `--help`, Typer's own options, Click's
usage errors), each msgid the English the library itself prints, so that napledger's
catalogs can say them in the table's language. They are the libraries' sentences, not
napledger's: napledger does not word them, it only translates them (Click and Typer look
the frame up through gettext themselves; Typer's copy of Click writes its usage errors
without gettext, so cli/errors.py reads them back by the patterns beside the msgids). A
sentence napledger words itself does not belong there, and is counted where it is said.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "napledger"
FRONT_ENDS = ("cli", "web", "export")
MOST = 25  # the aim (#34): the front ends' own sentences with a placeholder, all together
NOW = 24  # where they stand (#34): lower it, never raise it

GETTEXT = {"_", "N_", "NC_", "ngettext", "pgettext", "npgettext", "gettext"}
# A placeholder in a Python message ({player}, {word!r}, {n:>3}) or a template's (%(num)d,
# {{ x }} inside trans).
PY_PLACEHOLDER = re.compile(r"\{\w*(?:![rsa])?(?::[^{}]*)?\}")
TEMPLATE_CALL = re.compile(
    r"""\b(?:_|gettext|ngettext|pgettext)\(\s*(?:"[^"]*"\s*,\s*)?("(?:[^"\\]|\\.)*")""", re.S
)
TEMPLATE_TRANS = re.compile(r"{%-?\s*trans\b(.*?)%}(.*?){%-?\s*endtrans", re.S)


def _python_sentences(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in GETTEXT:
            continue
        texts = [
            a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
        if any(PY_PLACEHOLDER.search(t) for t in texts):
            found.append(f"{path.name}:{node.lineno}: {texts[-1][:60]}")
    return found


def _template_sentences(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    found = [f"{path.name}: {m[1][:60]}" for m in TEMPLATE_CALL.finditer(text) if "%(" in m[1]]
    found += [
        f"{path.name}: {m[2].strip()[:60]}"
        for m in TEMPLATE_TRANS.finditer(text)
        if "{{" in m[2] or "%(" in m[2]
    ]
    return found


def front_end_sentences() -> list[str]:
    """Every gettext call with a placeholder in the three front ends, where it is."""
    found: list[str] = []
    for front_end in FRONT_ENDS:
        for path in sorted((PACKAGE / front_end).rglob("*")):
            if path.suffix == ".py":
                found += [f"{front_end}/{s}" for s in _python_sentences(path)]
            elif path.suffix == ".html":
                found += [f"{front_end}/{s}" for s in _template_sentences(path)]
    return found


def test_no_front_end_says_a_new_sentence_of_its_own():
    """A sentence about the evening is the core's (napledger/core/read/): a new one
    written in a front end fails here."""
    found = front_end_sentences()
    assert len(found) <= NOW, "\n".join(found)


def test_the_front_ends_say_few_sentences_of_their_own():
    found = front_end_sentences()
    assert len(found) <= MOST, "\n".join(found)


def test_the_count_finds_what_it_counts(tmp_path):
    """Each kind of sentence the count is for is found (else it proves nothing)."""
    code = tmp_path / "x.py"
    code.write_text(
        '_("{player} deals")\nngettext("{n} deal", "{n} deals", n)\n_("plain")\n'
        '_("not {word!r}")\n_("{n:>3} rows")\n'
    )
    page = tmp_path / "x.html"
    page.write_text(
        '{{ _("Close %(name)s", name=n) }} {{ _("Close") }}'
        "{% trans p=x %}<b>{{ p }}</b> pays{% endtrans %}"
    )
    assert len(_python_sentences(code)) == 4
    assert len(_template_sentences(page)) == 2


if __name__ == "__main__":
    for line in front_end_sentences():
        print(line)
