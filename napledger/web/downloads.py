"""What the keeper takes home: the session's workbook."""

from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import Response

from napledger.web import calls
from napledger.web.access import KeeperPage
from napledger.web.site import DB

router = APIRouter()


@router.get("/s/{session}/workbook")
def download(session: int, db: DB, _key: KeeperPage) -> Response:
    """The session's workbook, the very file `export` writes, for the keeper's phone."""
    name, content = calls.workbook(db, session)
    return Response(
        content,
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        headers={
            "content-disposition": f"attachment; filename*=UTF-8''{quote(name)}",
            "cache-control": "no-store",
        },
    )
