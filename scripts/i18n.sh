#!/usr/bin/env bash
# Re-extract the messages, merge them into the French catalogue and compile it (README "Languages").
#   scripts/i18n.sh          extract + update + compile (after changing a message in the code)
#   scripts/i18n.sh compile  compile only (after editing guyenne_explore/locale/fr/LC_MESSAGES/*.po)
# Commit the .pot, the .po and the .mo: tests/test_i18n.py checks that they are in step with the code.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL="${PYBABEL:-.venv/bin/pybabel}"
LOCALE=guyenne_explore/locale
if [ "${1:-}" != "compile" ]; then
  "$PYBABEL" extract -F babel.cfg -k N_ -k NP_:1c,2 --no-location --sort-output --width=120 \
    --project=guyenne_explore -o "$LOCALE/guyenne_explore.pot" .
  "$PYBABEL" update -i "$LOCALE/guyenne_explore.pot" -d "$LOCALE" -D guyenne_explore -l fr \
    --no-fuzzy-matching --ignore-obsolete --width=120
fi
"$PYBABEL" compile -d "$LOCALE" -D guyenne_explore --statistics
