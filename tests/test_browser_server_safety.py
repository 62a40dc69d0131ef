"""The app's server under hand-made clients of its kernels' websockets, and its page when the kernel is gone.

A client of ``/api/kernels/<id>/channels`` that asks for no protocol (the legacy one) is refused before the
upgrade: Voilà reads each binary frame it sends as a v1 frame, and one diagram download (a widget's message with
a buffer) took the server from 100 MB to gigabytes within seconds, unanswering.  A v1 frame whose header announces
more parts than it holds is dropped (the reader looped over 2**63 parts).  No frame the kernel sends carries a
traceback or a path of the server when a page sends widgets bad payloads.  When the page's kernel is killed the
page says, in words, that the explorer stopped and to reload.  Skipped with the reason when Playwright, Voilà or
chromium are missing (GUYENNE_REQUIRE_BROWSER=1 turns that into a failure).
"""

from __future__ import annotations

import json
import re
import signal
import time
import urllib.parse
import urllib.request

import psutil
import pytest

from tests import browser_app as app

V1 = "v1.kernel.websocket.jupyter.org"
#: how much the server may grow over a download to a page (its own size is about 100 MB)
GROWTH_MB = 150


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    port = app.free_port(8940, 8949)
    with app.served(port, tmp_path_factory.mktemp("voila") / "voila.log") as (url, browser):
        yield port, url, browser


def _server(port: int) -> psutil.Process:
    return next(p for p in psutil.Process().children(recursive=True)
                if "voila" in " ".join(app.command_line(p)) and f"--port={port}" in app.command_line(p))


def _kernels(port: int) -> dict[str, psutil.Process]:
    """The server's kernels by id (read from their connection files' names; a kernel killed and not yet reaped is
    none)."""
    found = {}
    for proc in _server(port).children(recursive=True):
        m = re.search(r"kernel-([0-9a-f-]+)\.json", " ".join(app.command_line(proc)))
        if m:
            found[m.group(1)] = proc
    return found


def _page_and_kernel(port: int, url: str, browser):
    before = set(_kernels(port))
    page, _ = app.open_explorer(browser, url, 1280, 800)
    new = set(_kernels(port)) - before
    assert len(new) == 1, f"the page's kernel is not found among {new}"
    return page, new.pop()


def _channels(port: int, url: str, kernel: str) -> str:
    token = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["token"][0]
    return f"ws://127.0.0.1:{port}/api/kernels/{kernel}/channels?token={token}"


def _answer_seconds(port: int, url: str, kernel: str) -> float:
    """Seconds the server takes to answer a GET of the kernel's model (a failure past 1 s)."""
    start = time.monotonic()
    with urllib.request.urlopen(_channels(port, url, kernel).replace("ws://", "http://").replace("/channels", ""),
                                timeout=1):
        return time.monotonic() - start


def _send(ws, msg_type: str, content: dict) -> None:
    from jupyter_client.session import Session
    from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

    session = Session()
    ws.send_binary(serialize_msg_to_ws_v1(session.msg(msg_type, content), "shell", session.pack))


def _frames(ws, seconds: float) -> list[bytes]:
    import websocket

    frames, end = [], time.monotonic() + seconds
    ws.settimeout(0.5)
    while time.monotonic() < end:
        try:
            frames.append(ws.recv())
        except websocket.WebSocketTimeoutException:
            pass
    return frames


def _message(frame: bytes) -> tuple[str, dict]:
    """A v1 frame's message type and content."""
    from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1

    _channel, parts = deserialize_msg_from_ws_v1(frame)
    return json.loads(parts[0])["msg_type"], json.loads(parts[3])


def _download_png(page, scale: str = "8") -> int:
    """Download the table's diagram as a PNG at ``scale`` from the page; its size in bytes."""
    page.click("text=Export the diagram (SVG, PNG, PDF)")
    box = page.locator(".guyenne-diagram-export input[type=text]").last
    box.fill(scale)
    box.press("Enter")
    page.wait_for_timeout(500)  # the scale reaches the kernel before the click does
    with page.expect_download() as info:
        page.click('button:has-text("Download diagram")')
    with open(info.value.path(), "rb") as f:
        return len(f.read())


def test_a_kernel_websocket_without_the_v1_protocol_is_refused_and_a_download_leaves_the_server_small(served):
    import websocket

    port, url, browser = served
    page, kernel = _page_and_kernel(port, url, browser)
    try:
        server = _server(port)
        before = server.memory_info().rss >> 20
        try:
            legacy = websocket.create_connection(_channels(port, url, kernel))
        except websocket.WebSocketBadStatusException as refused:
            assert refused.status_code == 400 and V1.encode() in refused.resp_body
        else:  # closed before any download: with it open, the download below grew the server by gigabytes
            legacy.close()
            pytest.fail("a kernel websocket without the v1 protocol was accepted")
        silent = websocket.create_connection(_channels(port, url, kernel), subprotocols=[V1])  # never reads
        try:
            assert silent.getsubprotocol() == V1
            assert _download_png(page) > 10_000
            page.wait_for_timeout(3000)
            grown = (server.memory_info().rss >> 20) - before
            print(f"server: {before} MB before, grown by {grown} MB after the download")
            assert grown < GROWTH_MB
            assert _answer_seconds(port, url, kernel) < 1
        finally:
            silent.close()
    finally:
        page.close()


def test_a_v1_frame_announcing_more_parts_than_it_holds_is_dropped(served):
    import websocket

    port, url, browser = served
    page, kernel = _page_and_kernel(port, url, browser)
    try:
        server = _server(port)
        before = server.memory_info().rss >> 20
        ws = websocket.create_connection(_channels(port, url, kernel), subprotocols=[V1])
        try:
            ws.send_binary(b"\xff" * 16)  # 2**64 - 1 parts announced
            ws.send("a text frame")
            time.sleep(2)
            assert _answer_seconds(port, url, kernel) < 1
            assert (server.memory_info().rss >> 20) - before < GROWTH_MB
            _send(ws, "kernel_info_request", {})  # the connection still carries good frames
            assert "kernel_info_reply" in [kind for kind, _content in map(_message, _frames(ws, 5))]
        finally:
            ws.close()
    finally:
        page.close()


def test_no_frame_carries_a_traceback_or_a_server_path_when_widgets_get_bad_payloads(served):
    import websocket

    port, url, browser = served
    page, kernel = _page_and_kernel(port, url, browser)
    seen: list[bytes] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: seen.append(
        payload if isinstance(payload, bytes) else payload.encode())))
    ws = websocket.create_connection(_channels(port, url, kernel), subprotocols=[V1])
    try:
        _send(ws, "comm_info_request", {})
        comms = next(content["comms"] for kind, content in map(_message, _frames(ws, 5)) if kind == "comm_info_reply")
        for comm in comms:  # every widget: a state of the wrong types, and custom messages it does not expect
            _send(ws, "comm_msg", {"comm_id": comm, "data": {"method": "update", "buffer_paths": [],
                                                             "state": {"layout": 5, "value": {"x": [1]}}}})
            _send(ws, "comm_msg", {"comm_id": comm, "data": {"method": "custom", "content": {
                "type": "castle", "castle": "x", "list": 0, "move": 5, "event": "click"}}})
        frames = _frames(ws, 10) + seen
        errors = [content for kind, content in map(_message, frames) if kind == "error"]
        assert errors, "no error was provoked: the test proves nothing"
        leaks = [f[:300] for f in frames if b"Traceback" in f or str(app.ROOT).encode() in f or b"site-packages" in f]
        assert not leaks, leaks[:3]
        assert page.locator(".guyenne-table svg g.castle").count()  # the page still shows the explorer
    finally:
        ws.close()
        page.close()


def test_the_page_says_the_explorer_stopped_when_its_kernel_is_killed(served):
    port, url, browser = served
    page, kernel = _page_and_kernel(port, url, browser)
    try:
        assert not page.locator(".guyenne-stopped").count()
        _kernels(port)[kernel].send_signal(signal.SIGKILL)
        banner = page.locator(".guyenne-stopped")
        banner.wait_for(timeout=15_000)
        assert "The explorer has stopped" in banner.inner_text() and "Reload the page" in banner.inner_text()
        app.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(app.ARTIFACTS / "kernel-stopped-1280x800.png"))
    finally:
        page.close()


def test_an_error_leaves_the_app_kernel_as_one_short_line_and_its_traceback_goes_to_the_log(caplog):
    """What the app's first cell installs, on a stand-in for ipykernel's shell: the words sent name the kind of
    error only (its message may hold a server path), the traceback is logged."""
    import logging

    from guyenne_explore.widgets.guard import keep_tracebacks_in_the_server_log

    sent = []

    class Shell:
        def _showtraceback(self, etype, evalue, stb):
            sent.append((etype, str(evalue), stb))

    shell, root = Shell(), logging.getLogger()
    handlers = list(root.handlers)
    try:
        keep_tracebacks_in_the_server_log(shell)
        try:
            open(app.ROOT / "nowhere" / "file")
        except OSError as exc:
            shell._showtraceback(type(exc), exc, ["Traceback (most recent call last):", str(exc)])
    finally:
        for handler in set(root.handlers) - set(handlers):
            root.removeHandler(handler)
        logging.captureWarnings(False)
    (etype, words, stb), = sent
    assert etype is FileNotFoundError and stb == [words] and "FileNotFoundError" in words
    assert "nowhere" not in words and "Traceback" not in words
    assert "Traceback" in caplog.text and str(app.ROOT / "nowhere") in caplog.text
