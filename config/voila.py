"""Voilà settings of the explorer app (``scripts/app.sh`` passes ``--Voila.config_file_paths=config``).

Safe to share by default: loopback only, a token (``app.sh`` gives a random one per
launch; without one Voilà makes its own), no file of the server served, and no
kernel left behind for long: a kernel without any connection is culled after 10
idle minutes.  A page that unloads asks the server to shut its kernel down at once
(Voilà's beforeunload beacon, below); a reload or another address sends it, but a
closed tab or browser may not (Chromium drops it on a tab's close), and then the
culling frees the kernel.
"""

c = get_config()  # noqa: F821  (traitlets provides it to config files)

c.Voila.ip = "127.0.0.1"
c.Voila.open_browser = False
c.Voila.auto_token = True  # a token even when none is given on the command line
# the largest message a page may send (an upload is capped at 1 MB before it is sent)
c.Voila.tornado_settings = {"websocket_max_message_size": 4 * 1024 * 1024}

c.VoilaConfiguration.file_allowlist = []  # /voila/files/ serves nothing (it needs no token)
c.VoilaConfiguration.show_tracebacks = False

c.MappingKernelManager.cull_idle_timeout = 600
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False  # an open tab keeps its kernel however long it idles
c.MappingKernelManager.cull_busy = False


def _xsrf_cookie(req_handler, notebook, cwd):
    """Give the page its _xsrf cookie.

    Voilà's page shuts its kernel down as it unloads with a POST that must carry
    that cookie; a visit opened with ``?token=`` gets none, so without this the POST
    is refused and the kernel would wait for the culler.
    """
    req_handler.xsrf_token  # noqa: B018  (reading it sets the cookie)


c.VoilaConfiguration.prelaunch_hook = _xsrf_cookie
