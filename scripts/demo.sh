#!/usr/bin/env bash
# Set everything up, then show the engine at work: a seeded game, a position's moves and its exact analysis.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
G=.venv/bin/guyenne-explore
echo "== a seeded uniform-random game under the advanced rules"
$G play --rules advanced --seed 1 | tail -n 12
echo "== legal moves of tests/positions/advanced-respond-second.json"
$G moves tests/positions/advanced-respond-second.json
echo "== its exact outcome distribution under the uniform policy"
$G analyse tests/positions/advanced-respond-second.json --exact
echo "== a diagram of it: diagram.svg"
$G diagram tests/positions/advanced-respond-second.json -o diagram.svg
