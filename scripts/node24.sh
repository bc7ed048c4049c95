#!/usr/bin/env bash
# Prints the bin directory of a Node that satisfies package.json's engines: the machine's own when it
# is recent enough, else the official Node 24 binary, installed once into a cache folder from the npm
# registry's node-linux-<arch> package (bin/node and headers; the machine's npm runs under it).
#   export PATH="$(bash scripts/node24.sh):$PATH"
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=24.21.0

# Compares major.minor against engines.node (">=MAJOR.MINOR"), with whatever node is on PATH.
if command -v node >/dev/null 2>&1 && node -e '
  const need = require("./package.json").engines.node.replace(">=", "").split(".").map(Number);
  const [major, minor] = process.versions.node.split(".").map(Number);
  process.exit(major > need[0] || (major === need[0] && minor >= need[1]) ? 0 : 1);
'; then
  dirname "$(command -v node)"
  exit 0
fi

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "no node-linux package for $(uname -m); install Node $NODE_VERSION by hand" >&2; exit 1 ;;
esac
dir="${XDG_CACHE_HOME:-$HOME/.cache}/scraper-cluster/node-$NODE_VERSION"
if [ ! -x "$dir/bin/node" ]; then
  echo "Installing Node $NODE_VERSION into $dir" >&2
  mkdir -p "$(dirname "$dir")"
  tmp=$(mktemp -d "$(dirname "$dir")/.node-XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  tarball=$(npm pack "node-linux-$arch@$NODE_VERSION" --pack-destination "$tmp" --silent | tail -n 1)
  tar -xzf "$tmp/$tarball" -C "$tmp"
  "$tmp/package/bin/node" --version >/dev/null
  # A rename within one folder, so a concurrent run sees either nothing or the whole install.
  mv -T "$tmp/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ]
fi
echo "$dir/bin"
