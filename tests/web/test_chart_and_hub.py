"""The pure parts of the web layer: the chart's geometry and the live watchers' lifecycle."""

from __future__ import annotations

import asyncio
import contextlib

from napledger.web.chart import BOTTOM, HEIGHT, PAD, WIDTH, running_chart
from napledger.web.live import Hub, Watch


def test_no_deal_no_chart():
    assert running_chart([("Ann", ()), ("Ben", ())]) is None
    assert running_chart([]) is None


def test_each_line_starts_at_zero_and_spans_the_box():
    chart = running_chart([("Ann", (30, 20)), ("Ben", (-10, -20))])
    assert chart is not None
    assert (chart.top, chart.bottom) == (30, -20)
    ann, ben = chart.lines
    first_ann = ann.points.split()[0]
    assert first_ann == f"{PAD:.1f},{chart.zero_y}"  # before the first deal: nothing
    xs = [float(p.split(",")[0]) for p in ann.points.split()]
    assert xs[0] == PAD and xs[-1] == WIDTH - PAD
    ys = [float(p.split(",")[1]) for p in ann.points.split() + ben.points.split()]
    assert min(ys) == PAD and max(ys) == HEIGHT - BOTTOM  # the highest and lowest touch the box
    assert (ann.last, ben.last) == (20, -20)
    assert ann.colour != ben.colour and ann.dash != ben.dash  # never colour alone


def test_a_player_away_leaves_a_gap_and_one_who_joined_starts_where_they_sat():
    # Ann all evening; Ben from deal 2, away for deal 4, back for deal 5.
    chart = running_chart([("Ann", (5, 3, 1, 0, -2)), ("Ben", (None, 2, 4, None, 6))])
    assert chart is not None
    ann, ben = chart.lines
    assert len(ann.pieces) == 1 and len(ann.pieces[0].split()) == 6  # from 0 before deal 1
    assert [len(p.split()) for p in ben.pieces] == [2, 1]  # deals 2-3, then deal 5 alone
    first_ben_x = float(ben.pieces[0].split()[0].split(",")[0])
    second_ann_x = float(ann.pieces[0].split()[2].split(",")[0])
    assert first_ben_x == second_ann_x  # Ben's line begins at deal 2, not before the first
    assert ben.last == 6


def test_the_deal_numbers_run_along_the_bottom_first_and_last_among_them():
    labels = [str(n) for n in range(1, 41)] + ["close"]
    chart = running_chart([("Ann", tuple(range(41)))], labels)
    assert chart is not None
    shown = [label for _, label in chart.ticks]
    assert shown[0] == "1" and shown[-1] == "close" and len(shown) == 6
    xs = [x for x, _ in chart.ticks]
    assert xs == sorted(xs) and xs[-1] == WIDTH - PAD


def test_a_flat_evening_still_draws():
    chart = running_chart([("Ann", (0, 0))])
    assert chart is not None and chart.top == chart.bottom == 0


def test_one_watcher_per_session_started_on_demand_and_stopped_with_its_last_page():
    polled: list[int] = []
    marks = {"value": 1}

    def make(session: int, lang: str = "en") -> Watch:
        def fingerprint():
            polled.append(session)
            return (marks["value"],)

        return Watch(
            fingerprint,
            lambda _mark: (f"board {marks['value']}", marks["value"], ()),
            interval=0.01,
        )

    async def scenario() -> None:
        hub = Hub(make)
        async with hub.watching(7) as first, hub.watching(7) as second:
            assert first is second and first.listeners == 2
            assert first.snapshot is not None and first.snapshot.html == "board 1"
            waiting = first.changed
            marks["value"] = 2
            await asyncio.wait_for(waiting.wait(), 2)  # a change wakes every page
            assert first.snapshot.html == "board 2"
            watcher = first.task
        assert hub.watches == {}  # the last page left: the watcher stopped
        assert watcher is not None
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(watcher, 2)  # its end awaited, not guessed at
        assert watcher.cancelled()  # and it polls no more: only its task polled
        async with hub.watching(8) as watch:
            waiting = watch.changed
            hub.stop()
            assert waiting.is_set() and hub.stopping

    asyncio.run(scenario())


def test_a_page_joining_a_running_watcher_first_gets_the_board_as_it_is_now():
    marks = {"value": 1}

    def make(session: int, lang: str = "en") -> Watch:
        # A watcher that polls rarely: its snapshot may be older than the database.
        return Watch(
            lambda: (marks["value"],),
            lambda _mark: (f"board {marks['value']}", marks["value"], ()),
            interval=60,
        )

    async def scenario() -> None:
        hub = Hub(make)
        async with hub.watching(7) as first:
            assert first.snapshot is not None and first.snapshot.html == "board 1"
            marks["value"] = 2  # a deal recorded since the watcher last looked
            async with hub.watching(7) as second:
                assert second.snapshot is not None and second.snapshot.html == "board 2"

    asyncio.run(scenario())


def test_a_stream_left_open_when_the_server_stops_closes_cleanly():
    # uvicorn stopping with streams open leaves them to the loop, which closes every async
    # generator it knows at once, in no set order; a generator-based `watching` closed
    # before the stream holding it failed that stream's close ("didn't stop after athrow").
    def make(session: int, lang: str = "en") -> Watch:
        return Watch(lambda: (1,), lambda _mark: ("board", 1, ()), interval=60)

    failures: list[dict[str, object]] = []
    hub = Hub(make)

    async def stream():
        async with hub.watching(7) as watch:
            while True:
                yield watch.snapshot
                await watch.changed.wait()

    async def scenario() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda _loop, context: failures.append(context)
        )
        streams = [stream() for _ in range(3)]
        for opened in streams:
            assert await anext(opened) is not None
        assert hub.watches[(7, "en")].listeners == 3
        await asyncio.get_running_loop().shutdown_asyncgens()

    asyncio.run(scenario())
    assert failures == [] and hub.watches == {}
