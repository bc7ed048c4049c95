#!/usr/bin/env bash
# Prints the bin directory of a Node 24: the machine's own when it is Node 24 or newer, else the
# official Node 24 binary, installed once into a cache folder from the npm registry's
# node-linux-<arch> package (bin/node and headers; the machine's npm runs under it). package.json's
# engines accepts 22.12 and up, but CI and the images run 24, the LTS line, so what CI passes is
# what users run.
#   export PATH="$(bash scripts/node24.sh):$PATH"
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=24.21.0

if command -v node >/dev/null 2>&1 && node -e "process.exit(+process.versions.node.split('.')[0] >= ${NODE_VERSION%%.*} ? 0 : 1)"; then
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
