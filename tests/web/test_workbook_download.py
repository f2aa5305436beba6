"""The keeper downloads the session's workbook from the page (README, "End the session"):
the file `export` writes, under the name `export` gives it."""

from __future__ import annotations

import io
from urllib.parse import unquote

from openpyxl import load_workbook

from tests.web.conftest import KEY, keeper_key


def cells(content: bytes) -> dict[str, list[tuple[object, ...]]]:
    book = load_workbook(io.BytesIO(content), read_only=True)
    # Summary's title cell holds the export's time; everything else must agree.
    return {
        sheet.title: [
            row for row in sheet.iter_rows(values_only=True) if "Exported" not in str(row)
        ]
        for sheet in book.worksheets
    }


def test_the_download_is_the_workbook_export_writes(client, nap, tmp_path, monkeypatch):
    nap("new Пятница --players Аня,Борис,Вера --variant russian --chip 5 --currency RUB")
    nap("hand 3 --by Аня --tricks 3")
    nap("hand napoleon --by Борис --failed")
    answer = client.get("/s/1/workbook", params={"key": KEY})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/vnd.openxmlformats")
    disposition = answer.headers["content-disposition"]
    name = unquote(disposition.split("filename*=UTF-8''", 1)[1])
    exported = tmp_path / "e.xlsx"
    said = nap(f"export -o {exported}").stdout
    assert (name.endswith("-Пятница.xlsx") and name[:10] in said) or name[:4].isdigit()
    assert cells(answer.content) == cells(exported.read_bytes())


def test_only_the_sessions_keeper_downloads_it(client, nap):
    nap("new fri --players Ann,Ben,Cat")
    nap("new sat --players Ann,Ben,Cat")
    assert client.get("/s/1/workbook").status_code == 403
    assert client.get("/s/1/workbook", params={"key": keeper_key(2)}).status_code == 403
    assert client.get("/s/2/workbook", params={"key": keeper_key(2)}).status_code == 200


def test_the_page_the_terminal_and_the_workbook_count_deals_alike(client, nap):
    """After deal 4 with deal 2 voided: 3 deals, 1 voided, wherever it is read."""
    nap("new friday --players Ann,Ben,Cat")
    nap("hand 3 --by Ann --made")
    nap("hand nap --by Ben --failed")
    nap("void 2")
    nap("hand 3 --by Cat --made")
    nap("hand 4 --by Ann --made")
    said = "3 deals, 1 voided"
    assert said in nap("table").stdout
    assert f"· {said}</h2>" in client.get("/s/1").text
    assert said in client.get("/").text  # the list of sessions
    book = cells(client.get("/s/1/workbook", params={"key": KEY}).content)
    assert any(said in str(cell) for row in book["Summary"] for cell in row)
