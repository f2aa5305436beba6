"""Draw an evening in Russian and in Polish as the terminal and the printed workbook show it.

terminal-{ru,pl}.png, play-{ru,pl}.png: runs the real commands in a throwaway ledger, each
in a pseudo-terminal 100 columns wide (so `play` prompts and echoes what is typed, as at a
table), and draws what the terminal showed in a monospace font with Debian's Chromium
(lines longer than the terminal folded between words).

workbook-{ru,pl}.png, workbook-{ru,pl}-deals.png: the same evenings exported with
`--lang ru|pl`, printed by LibreOffice through see-workbook (SEE_WORKBOOK, by default
/work/shared/tools/see-workbook; skipped when it is not there) and turned into PNGs at
90 dpi: the first page and the Deals sheet's first page.

    python docs/screenshots/terminal.py [OUTDIR]     # OUTDIR: docs/screenshots by default

Not a test: nothing here is asserted. Needs napledger installed (pip install -e .),
/usr/bin/chromium, and for the workbooks LibreOffice and poppler-utils.
"""

from __future__ import annotations

import fcntl
import html
import os
import pty
import re
import select
import struct
import subprocess
import sys
import tempfile
import termios
import textwrap
from pathlib import Path

COLUMNS = 100
SEE_WORKBOOK = os.environ.get("SEE_WORKBOOK", "/work/shared/tools/see-workbook")
DEALS_SHEET = {"ru": "Сдачи", "pl": "Rozdania"}  # the Deals sheet's name, in its header
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")

# The evenings: (session name, players, variant, chip, currency, the one-shot deals, a
# deal by an unknown player, what is typed at `play`).
EVENINGS = {
    "ru": (
        "пятница",
        "Борис,Аня,Гена,Лена",
        "russian",
        "2,50",
        "RUB",
        [
            ["hand", "три", "--by", "Борис", "--tricks", "1"],
            ["hand", "наполеон", "--by", "Аня", "--tricks", "5"],
            ["hand", "два", "--by", "Гена", "--tricks", "0"],
        ],
        ["hand", "три", "--by", "Зоя", "--tricks", "1"],
        ["тир борис взял", "три гена", "наполеон лена без", "один аня 1", "quit"],
    ),
    "pl": (
        "piątek",
        "Bartek,Ania,Zosia,Łukasz",
        "classic",
        "0,50",
        "PLN",
        [
            ["hand", "trzy", "--by", "Bartek", "--tricks", "3"],
            ["hand", "nap", "--by", "Ania", "--tricks", "5"],
            ["hand", "mizer", "--by", "Zosia", "--failed"],
        ],
        ["hand", "trzy", "--by", "Kuba", "--tricks", "1"],
        ["trzyy bartek 3", "trzy zosia", "wellington łukasz bez", "cztery ania 4", "quit"],
    ),
}


def run(args: list[str], env: dict[str, str], typed: list[str] | None = None) -> str:
    """What a terminal shows for `napledger ARGS` (typing TYPED at each prompt)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "napledger", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    lines = list(typed or [])
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
            # A prompt ends `> ` with nothing after it: type the next line.
            if lines and seen.rstrip(b" ").endswith(b">") and seen.endswith(b"> "):
                os.write(master, (lines.pop(0) + "\n").encode())
        elif proc.poll() is not None:
            break
    proc.wait()
    os.close(master)
    text = ANSI.sub("", seen.decode("utf-8", "replace")).replace("\r", "")
    return "\n".join(line.rstrip() for line in text.splitlines())


def wrapped(text: str) -> str:
    """Long lines folded at the terminal's width, as a terminal would, but between words."""
    out = []
    for line in text.splitlines():
        out += textwrap.wrap(line, COLUMNS, break_long_words=False, break_on_hyphens=False) or [""]
    return "\n".join(out)


def draw(text: str, png: Path) -> None:
    from playwright.sync_api import sync_playwright

    page_html = (
        "<!doctype html><meta charset=utf-8><style>body{margin:0;background:#1e1e1e}"
        "pre{margin:0;padding:16px;color:#eee;font:15px/1.35 'DejaVu Sans Mono',monospace;"
        "white-space:pre;display:inline-block}</style><pre>" + html.escape(wrapped(text)) + "</pre>"
    )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1040, "height": 200})
        page.set_content(page_html)
        page.locator("pre").screenshot(path=str(png))
        browser.close()


def evening(lang: str, out: Path, work: Path) -> None:
    name, players, variant, chip, currency, deals, unknown, typed = EVENINGS[lang]
    env = {
        **os.environ,
        "NAPLEDGER_DB": str(work / f"{lang}.db"),
        "NAPLEDGER_LANG": lang,
        "TERM": "xterm",  # not dumb: Rich would draw a dumb terminal 80 wide
        "NO_COLOR": "1",
        "COLUMNS": str(COLUMNS),
    }
    env.pop("NAPLEDGER_SESSION", None)
    new = ["new", name, "--players", players, "--variant", variant, "--chip", chip]
    new += ["--currency", currency, "--lang", lang]
    shown = []
    for args in [new, *deals, unknown, ["settle"]]:
        shown.append("$ napledger " + " ".join(args))
        shown.append(run(args, env))
    draw("\n".join(shown), out / f"terminal-{lang}.png")
    draw("$ napledger play\n" + run(["play"], env, typed), out / f"play-{lang}.png")
    xlsx = work / f"evening-{lang}.xlsx"
    run(["export", "--lang", lang, "-o", str(xlsx), "--force"], env)
    print(f"{lang}: {out}/terminal-{lang}.png, {out}/play-{lang}.png, workbook {xlsx}")
    if Path(SEE_WORKBOOK).exists():
        printed(lang, xlsx, out, work / f"printed-{lang}")


def printed(lang: str, xlsx: Path, out: Path, into: Path) -> None:
    """The workbook's first page and its Deals sheet's first page, as LibreOffice prints them."""
    subprocess.run([SEE_WORKBOOK, str(xlsx), str(into)], check=True, stdout=subprocess.DEVNULL)
    pdf = into / f"{xlsx.stem}.pdf"
    pages = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout.split("\f")
    deals = next(
        n
        for n, text in enumerate(pages, 1)
        if text.strip().splitlines()[0].rstrip().endswith(DEALS_SHEET[lang])
    )
    for number, name in ((1, f"workbook-{lang}.png"), (deals, f"workbook-{lang}-deals.png")):
        first = ["-f", str(number), "-l", str(number)]
        subprocess.run(
            ["pdftoppm", "-png", "-r", "90", "-singlefile", *first, str(pdf), str(into / "p")],
            check=True,
        )
        (into / "p.png").replace(out / name)
        print(f"{lang}: {out / name} (page {number} of {len(pages) - 1})")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
    work = Path(tempfile.mkdtemp(prefix="napledger-screens-"))
    for lang in EVENINGS:
        evening(lang, out, work)


if __name__ == "__main__":
    main()
