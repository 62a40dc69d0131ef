"""Voilà settings of the explorer app (``scripts/app.sh`` passes ``--Voila.config_file_paths=config``).

Safe to share by default: loopback only, a token (``app.sh`` gives a random one per
launch in $GUYENNE_APP_TOKEN, never on the command line; without one Voilà makes its own), no file of the server served, and no
kernel left behind for long: a kernel without any connection is culled after 10
idle minutes.  A page that unloads asks the server to shut its kernel down at once
(Voilà's beforeunload beacon, below); a reload or another address sends it, but a
closed tab or browser may not (Chromium drops it on a tab's close), and then the
culling frees the kernel.

A hand-made client of a kernel's websocket can neither stall the server (only the
page's v1 protocol is accepted, and a frame whose header cannot be true is dropped)
nor read the server's tracebacks (the app's kernels send an error as one short line
and log its traceback on the server).
"""

import os

import nbformat
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado import web

#: the kernel websocket protocol of Voilà's own page (binary frames that carry their buffers as they came)
KERNEL_WS_PROTOCOL = "v1.kernel.websocket.jupyter.org"


class V1KernelConnection(ZMQChannelsWebsocketConnection):
    """A kernel websocket that must ask for the v1 protocol: one without it is refused before the upgrade.

    Voilà's websocket handler reads the header of every binary frame it sends as v1; a
    frame of the legacy protocol (what a client asking for no protocol gets, e.g. a
    widget's message with a buffer: any download) is read as a count of billions of
    offsets, and the server then grows by gigabytes and stops answering.  The page
    always asks for v1, so only a hand-made client is turned away, with a 400 and
    the protocol to ask for.
    """

    async def prepare(self) -> None:
        """Refuse the connection unless its handshake offers :data:`KERNEL_WS_PROTOCOL`."""
        offered = self.websocket_handler.request.headers.get("Sec-WebSocket-Protocol", "")
        if KERNEL_WS_PROTOCOL not in (p.strip() for p in offered.split(",")):
            # answered here (Finish): the server's error page cannot be drawn for a websocket's address
            self.websocket_handler.set_status(400)
            raise web.Finish(f"a kernel websocket must ask for the {KERNEL_WS_PROTOCOL} protocol")
        await super().prepare()

    def handle_incoming_message(self, incoming_msg: str | bytes) -> None:
        """Pass a frame from the page on to the kernel, unless its v1 header is impossible (then say so, drop it).

        The v1 reader loops over the count of parts the frame's first 8 bytes announce:
        a frame of 16 bytes announcing 2**63 parts kept the server's loop busy growing a
        list without end.  A real frame holds those 8 bytes for each part it announces.
        """
        problem = v1_frame_problem(incoming_msg)
        if problem is not None:
            self.log.warning("kernel %s: a frame from the page was dropped: %s", self.kernel_id, problem)
            return
        super().handle_incoming_message(incoming_msg)  # type: ignore[arg-type]


def v1_frame_problem(frame: str | bytes) -> str | None:
    """Why ``frame`` cannot be a v1 kernel message (a count of parts its length cannot hold), or None."""
    if not isinstance(frame, bytes):
        return "a text frame (the v1 protocol sends binary frames)"
    parts = int.from_bytes(frame[:8], "little")
    if len(frame) < 8 or 8 * (parts + 1) > len(frame):
        return f"its header announces {parts} parts in {len(frame)} bytes"
    return None


c = get_config()  # noqa: F821  (traitlets provides it to config files)

c.Voila.ip = "127.0.0.1"
c.Voila.open_browser = False
c.Voila.auto_token = True  # a token even when none is given on the command line
# the token app.sh chose, given in the environment: on the command line any user's `ps` would show it; taken out
# of the environment here, so that the kernels (which inherit the server's) never hold it
if os.environ.get("GUYENNE_APP_TOKEN"):
    c.Voila.token = os.environ.pop("GUYENNE_APP_TOKEN")
# the largest message a page may send (an upload is capped at 1 MB before it is sent)
c.Voila.tornado_settings = {"websocket_max_message_size": 4 * 1024 * 1024}
c.Voila.kernel_websocket_connection_class = V1KernelConnection
c.ZMQChannelsWebsocketConnection.kernel_ws_protocol = KERNEL_WS_PROTOCOL

c.VoilaConfiguration.file_allowlist = []  # /voila/files/ serves nothing (it needs no token)
c.VoilaConfiguration.show_tracebacks = False

c.MappingKernelManager.cull_idle_timeout = 600
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False  # an open tab keeps its kernel however long it idles
c.MappingKernelManager.cull_busy = False


#: the app's first cell, run before the notebook's own: errors leave its kernel without their tracebacks
QUIET_KERNEL_CELL = ("from guyenne_explore.widgets.guard import keep_tracebacks_in_the_server_log\n"
                     "keep_tracebacks_in_the_server_log(get_ipython())")


def _prelaunch(req_handler, notebook, cwd):
    """Give the page its _xsrf cookie, and the notebook (read afresh for each visit) its quiet first cell.

    Voilà's page shuts its kernel down as it unloads with a POST that must carry
    that cookie; a visit opened with ``?token=`` gets none, so without this the POST
    is refused and the kernel would wait for the culler.  The cell is added here, not
    in the notebook, so that JupyterLab keeps its tracebacks.
    """
    req_handler.xsrf_token  # noqa: B018  (reading it sets the cookie)
    notebook.cells.insert(0, nbformat.v4.new_code_cell(QUIET_KERNEL_CELL))
    return notebook


c.VoilaConfiguration.prelaunch_hook = _prelaunch
