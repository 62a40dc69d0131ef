#!/usr/bin/env bash
# Set up (if needed), then serve the explorer notebook as a Voilà app and print its URL with its token.
# PORT=8866 by default; stop with Ctrl-C.
#
# Safe to share by default (settings in config/voila.py): loopback only (IP=0.0.0.0 or a host
# address to share on a network, behind TLS),
# a new random token at every launch (a visitor without it gets the login page, no kernel),
# no server files served, kernels culled after 10 idle minutes without a connection (a page that
# unloads asks for its kernel's shutdown at once, but a closed tab or browser may not get to ask).
# The page itself takes files only by upload and gives them only as downloads.
set -euo pipefail
cd "$(dirname "$0")/.."
GUYENNE_WARM=background bash scripts/setup.sh   # the server starts while the fast simulator compiles (see setup.sh)
PORT=${PORT:-8866}
IP=${IP:-127.0.0.1}
TOKEN=$(.venv/bin/python -c "import secrets; print(secrets.token_urlsafe(24))")
echo "Explorer app (Voilà): http://${IP}:${PORT}/?token=${TOKEN}"
# the token goes by the environment (config/voila.py takes it out): on the command line, `ps` would show it to anyone
GUYENNE_APP_TOKEN="${TOKEN}" exec .venv/bin/voila --no-browser --Voila.config_file_paths=config --port="${PORT}" \
  --Voila.ip="${IP}" notebooks/explorer.ipynb
