#!/usr/bin/env bash
# `npm run proto:breaking [<commit>]`: buf's breaking-change check (proto/buf.yaml: the FILE rules)
# of proto/ against a commit's, HEAD~1 unless told, so that a field renumbered, retyped or removed
# fails CI before a service built from the older protos meets one built from the newer.
set -euo pipefail
cd "$(dirname "$0")/.."
against="${1:-HEAD~1}"
if ! base=$(git rev-parse -q --verify "$against^{commit}"); then
  if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    echo "proto:breaking: $against is not in this shallow clone, so buf breaking is skipped; deepen it (git fetch --deepen=1) to check"
    exit 0
  fi
  echo "proto:breaking: no commit $against to compare proto/ with" >&2
  exit 1
fi
# The repository's object store by path and the commit by id: in a git worktree .git is a file, and
# HEAD in the shared store is another worktree's.
repo=$(git rev-parse --path-format=absolute --git-common-dir)
cd proto
exec ../node_modules/.bin/buf breaking --against "$repo#ref=$base,subdir=proto"
