"""The program defers Python's cycle collector while it starts (napledger/collector.py, issue
#23) and turns it back on before a command does its work: an evening of `play` or `serve`
never runs without it."""

import gc
import sys

import pytest

from napledger import allocator, collector, start


@pytest.fixture
def program(monkeypatch):
    """Runs napledger as its script does; the collector as it was after each test."""

    def run(*words: str) -> int:
        monkeypatch.setattr(sys, "argv", ["napledger", *words])
        with pytest.raises(SystemExit) as stop:
            start.main()
        return int(stop.value.code or 0)

    yield run
    gc.unfreeze()
    gc.enable()
    monkeypatch.setattr(collector, "_deferred", False)


def test_a_command_opening_its_database_runs_with_the_collector_on(nap, program):
    nap("new friday --players Ann,Ben,Cat")
    assert program("hand", "nap", "--by", "Ann", "--tricks", "5") == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0  # what start-up made, set aside


def test_the_server_runs_with_the_collector_on(program, monkeypatch):
    import napledger.web.serve

    seen = []
    monkeypatch.setattr(napledger.web.serve, "serve", lambda *given: seen.append(gc.isenabled()))
    assert program("serve") == 0
    assert seen == [True]


def test_started_leaves_a_process_that_did_not_defer_it_alone():
    frozen = gc.get_freeze_count()
    collector.started()
    assert gc.isenabled() and gc.get_freeze_count() == frozen


@pytest.fixture
def started_again(monkeypatch):
    """What `serve` would start itself again with, instead of doing it; glibc's
    malloc_trim there whatever the C library is."""
    calls = []
    monkeypatch.setattr(allocator.os, "execve", lambda *given: calls.append(given))
    monkeypatch.setattr(allocator, "malloc_trim", lambda: lambda pad: 0)
    monkeypatch.delenv("PYTHONMALLOC", raising=False)
    return calls


def test_the_server_starts_itself_again_on_the_c_allocator_once(started_again, monkeypatch):
    with allocator.program():
        allocator.serve_on_malloc()
    assert started_again == [
        (sys.executable, sys.orig_argv, {**allocator.os.environ, "PYTHONMALLOC": "malloc"})
    ]
    monkeypatch.setenv("PYTHONMALLOC", "malloc")  # as the process started again finds it
    with allocator.program():
        allocator.serve_on_malloc()
    assert len(started_again) == 1


def test_only_the_program_starts_itself_again(started_again, monkeypatch):
    allocator.serve_on_malloc()  # a test, or a program importing napledger: never replaced
    with allocator.program():
        pass
    allocator.serve_on_malloc()  # the program's command is over
    monkeypatch.setenv("PYTHONMALLOC", "pymalloc")  # the person's own choice is kept
    with allocator.program():
        allocator.serve_on_malloc()
    assert started_again == []
