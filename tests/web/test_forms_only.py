"""Only the page's own small url-encoded forms reach the app; uploads never reach a file."""

from __future__ import annotations

import tempfile

import pytest


@pytest.fixture
def no_temp_files(monkeypatch):
    """Any attempt to spool a body to disk fails the test."""
    made: list[object] = []

    def spool(*args, **kwargs):
        made.append(args)
        raise AssertionError("a request body was spooled to a file")

    monkeypatch.setattr(tempfile, "SpooledTemporaryFile", spool)
    monkeypatch.setattr(tempfile, "NamedTemporaryFile", spool)
    monkeypatch.setattr(tempfile, "TemporaryFile", spool)
    return made


def test_a_keyless_20_mb_upload_is_refused_before_it_reaches_a_file(nap, client, no_temp_files):
    nap("new fri --players Ann,Ben,Cat")
    upload = {"photo": ("a.bin", b"\0" * (20 * 1024 * 1024), "application/octet-stream")}
    answer = client.post("/s/1/hand", data={"key": "wrong"}, files=upload)
    assert answer.status_code == 413
    assert no_temp_files == []


def test_a_small_multipart_form_is_refused_too(nap, client, no_temp_files):
    nap("new fri --players Ann,Ben,Cat")
    answer = client.post("/s/1/hand", data={"key": "wrong"}, files={"f": ("a", b"x")})
    assert answer.status_code == 415
    assert no_temp_files == []


def test_a_form_without_a_declared_length_is_refused(nap, client):
    nap("new fri --players Ann,Ben,Cat")
    chunks = iter([b"key=wrong&bid=nap"])
    answer = client.post(
        "/s/1/hand",
        content=chunks,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert answer.status_code == 411


def test_the_pages_own_form_still_reaches_the_key_check(nap, client):
    nap("new fri --players Ann,Ben,Cat")
    answer = client.post("/s/1/hand", data={"key": "wrong", "bid": "nap"})
    assert answer.status_code not in (411, 413, 415)
