"""What the keeper takes home: the session's workbook."""

import tempfile
from pathlib import Path
from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import Response

from napledger.core.words import speaking, workbook_language
from napledger.export.workbook import file_name, played_on, write_workbook
from napledger.service.imports import kept_records
from napledger.web.access import KeeperPage
from napledger.web.site import DB

router = APIRouter()


@router.get("/s/{session}/workbook")
def download(session: int, db: DB, _key: KeeperPage) -> Response:
    """The session's workbook, the very file `export` writes, for the keeper's phone."""
    with db.read() as tx, tempfile.TemporaryDirectory() as folder:
        # Written inside the reading transaction: the deals stream from the store.
        info = tx.session(str(session)).info
        with speaking(workbook_language(None, [info.language])):  # as `export` chooses
            data = [tx.report(info)]
            name = file_name([data[0].name], played_on(data))
            kept = kept_records(tx, [info])  # what `import` makes the session again from
            content = write_workbook(
                data, Path(folder) / name, exists="replace", kept=kept
            ).read_bytes()
    return Response(
        content,
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        headers={
            "content-disposition": f"attachment; filename*=UTF-8''{quote(name)}",
            "cache-control": "no-store",
        },
    )
