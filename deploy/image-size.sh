#!/usr/bin/env bash
# `npm run image:size`: replays deploy/Dockerfile's runtime stage without Docker, prints the size
# of what that stage copies (broken down), then checks the pruned image still runs: every
# production dependency loads, each cluster main loads far enough to refuse an empty environment,
# and the standalone main answers /healthz on the image's word-vector cache.
# Too slow for `npm test` (a build, a production install, the cache: about two minutes).
# KEEP=1 keeps the replayed tree (its path is printed).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/cs-image-XXXXXX")"
app="$work/image/app"
service_pid=""
cleanup() {
  if [ -n "$service_pid" ]; then kill "$service_pid" 2>/dev/null || true; fi
  if [ "${KEEP:-0}" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
bytes() { du -sb "$@" | awk '{ s += $1 } END { print s + 0 }'; }
step() { printf '\n== %s\n' "$*"; }

step "build stage: npm run build, then the word vectors' cache (in $work)"
mkdir -p "$work/build" "$app"
cp "$root"/package.json "$root"/tsconfig.base.json "$root"/tsconfig.json "$work/build/"
cp -r "$root"/apps "$root"/libs "$root"/scripts "$work/build/"
# The build stage's full install is the repository's own node_modules.
ln -s "$root/node_modules" "$work/build/node_modules"
(cd "$work/build" && node scripts/build.js >/dev/null)
(cd "$work/build" && node -e "require('./dist/libs/embeddings/src/index.js').loadWordVectors(process.argv[1])" "$app/models")

step "runtime-deps stage: npm install --omit=dev, then deploy/prune-runtime.sh"
cp "$root"/package.json "$root"/package-lock.json "$app/"
(cd "$app" && ONNXRUNTIME_NODE_INSTALL=skip npm install --omit=dev --no-audit --no-fund --loglevel=error >/dev/null)
before="$(bytes "$app/node_modules")"
sh "$root/deploy/prune-runtime.sh" "$app/node_modules"
mv "$work/build/dist" "$app/dist"

step "what the runtime stage copies"
nm="$(bytes "$app/node_modules")"
dist="$(bytes "$app/dist")"
models="$(bytes "$app/models")"
manifest="$(bytes "$app/package.json")"
total=$((nm + dist + models + manifest))
printf '%-34s %s (%s before the prune)\n' "node_modules (production)" "$(mb "$nm")" "$(mb "$before")"
printf '%-34s %s\n' "dist" "$(mb "$dist")" "models (word-vector cache)" "$(mb "$models")" "package.json" "$(mb "$manifest")"
printf '%-34s %s\n' "runtime stage, added to the base" "$(mb "$total")"
echo
echo "biggest packages:"
(cd "$app/node_modules" && du -sb -- [!@.]*/ @*/*/ 2>/dev/null) | sort -rn | head -12 |
  while read -r size name; do printf '  %-32s %s\n' "${name%/}" "$(mb "$size")"; done

step "the base image"
# No registry is reachable here: the base's Node part is measured on this machine's Node 20, and
# Debian bookworm-slim's root file system is its published size (about 75 MB unpacked).
node_bin="$(command -v node)"
npm_dir="$(dirname "$(dirname "$(readlink -f "$node_bin")")")/lib/node_modules/npm"
node_part=$(($(bytes "$(readlink -f "$node_bin")") + $(bytes "$npm_dir")))
debian=75000000
printf '%-34s %s (node %s and npm here)\n' "Node in the base" "$(mb "$node_part")" "$(node -v)"
printf '%-34s ~%s (published, not measured)\n' "Debian bookworm-slim" "$(mb "$debian")"
printf '%-34s ~%s (docker image inspect --format {{.Size}} gives it exactly)\n' "image, base included" "$(mb $((total + node_part + debian)))"

step "check: every production dependency loads"
(cd "$app" && node -e "
  const deps = Object.keys(require('./package.json').dependencies);
  (async () => {
    const failed = [];
    for (const dep of deps) {
      try { require(dep); } catch (error) {
        try { await import(dep); } catch (again) { failed.push(dep + ': ' + again.message.split('\n')[0]); }
      }
    }
    if (failed.length) { console.error(failed.join('\n')); process.exit(1); }
    console.log(deps.length + ' loaded');
  })();
")

step "check: each cluster main loads and refuses an empty environment (exit 2)"
for service in gateway ingestion search-orchestrator dense sparse reranker; do
  code=0
  (cd "$app" && env -i PATH="$PATH" HOME="$work" node "dist/apps/$service/src/main.js" >"$work/$service.log" 2>&1) || code=$?
  if [ "$code" != 2 ]; then
    echo "$service exited $code, not 2:" >&2
    cat "$work/$service.log" >&2
    exit 1
  fi
  printf '  %-20s exit 2: %s\n' "$service" "$(grep -m1 -v 'invalid configuration' "$work/$service.log" | sed 's/^ *//')"
done

step "check: the standalone main answers /healthz on the image's models"
port="$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")"
(cd "$app" && exec env -i PATH="$PATH" HOME="$work" NODE_ENV=production MALLOC_ARENA_MAX=2 \
  EMBEDDINGS_CACHE_DIR="$app/models" CONSOLE_DIR="$app/dist/console" DATA_DIR="$work/data" PORT="$port" HOST=127.0.0.1 DRAIN_MS=0 \
  node dist/apps/standalone/src/main.js >"$work/standalone.log" 2>&1) &
service_pid=$!
started=$SECONDS
until health="$(curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null)"; do
  if ! kill -0 "$service_pid" 2>/dev/null || [ $((SECONDS - started)) -gt 120 ]; then
    echo "standalone did not answer /healthz:" >&2
    cat "$work/standalone.log" >&2
    exit 1
  fi
  sleep 0.5
done
echo "  healthy after $((SECONDS - started)) s: $health"
# The OpenAPI page loads @nestjs/swagger's UI, whose plugin folder sits beside the pruned TypeScript.
docs="$(curl -fsS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/docs")"
echo "  GET /docs: $docs"
# The search console the build bundled (CONSOLE_DIR, as the image sets it): the runtime has no esbuild.
console_page="$(curl -fsS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/console")"
echo "  GET /console: $console_page"
if [ -e "$work/data/models" ]; then
  echo "standalone built its own word-vector cache instead of reading the image's" >&2
  exit 1
fi
kill "$service_pid"
wait "$service_pid" 2>/dev/null || true
service_pid=""
echo
echo "runtime stage: $(mb "$total") added to the base (target: under 450 MB)"
