#!/usr/bin/env bash
# Set up (if needed), then open the explorer notebook in JupyterLab on loopback and print its URL.
# PORT=8888 by default; stop with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
GUYENNE_WARM=background bash scripts/setup.sh   # the server starts while the fast simulator compiles (see setup.sh)
PORT=${PORT:-8888}
TOKEN=$(.venv/bin/python -c "import secrets; print(secrets.token_hex(16))")
EXTRA=()
if [ "$(id -u)" = 0 ]; then EXTRA+=(--allow-root); fi   # containers often run as root
# the panels' Python methods that take a path (builder.load_file, exports.save) stay inside this folder
export GUYENNE_WORKSPACE="$PWD"
echo "Explorer in JupyterLab: http://127.0.0.1:${PORT}/lab/tree/notebooks/explorer.ipynb?token=${TOKEN}"
# server extensions the explorer does not use stay off (a faster start, no terminal); no news or update checks,
# and config/jupyterlab/overrides.json sets the news to "never" so that Lab does not ask about it on first open;
# config/jupyter_lab.py saves the project's notebooks without outputs (git sees no change after use)
exec .venv/bin/jupyter lab --no-browser --ip=127.0.0.1 --port="${PORT}" --IdentityProvider.token="${TOKEN}" \
  --ServerApp.root_dir="$PWD" "${EXTRA[@]}" \
  --ServerApp.jpserver_extensions="{'voila.server_extension': False, 'jupyter_lsp': False, 'jupyter_server_terminals': False}" \
  --LabApp.news_url=None --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate \
  --LabApp.app_settings_dir="$PWD/config/jupyterlab" --config="$PWD/config/jupyter_lab.py" "notebooks/explorer.ipynb"
