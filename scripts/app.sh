#!/usr/bin/env bash
# Set up (if needed), then serve the explorer notebook as a Voilà app on loopback and print its URL.
# PORT=8866 by default; stop with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
PORT=${PORT:-8866}
echo "Explorer app (Voilà): http://127.0.0.1:${PORT}/"
exec .venv/bin/voila --no-browser --port="${PORT}" --Voila.ip=127.0.0.1 notebooks/explorer.ipynb
