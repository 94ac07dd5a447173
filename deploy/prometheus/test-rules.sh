#!/usr/bin/env bash
# Checks the chart's Prometheus rules and runs their unit tests (npm run test:rules; CI).
# promtool comes with Debian's prometheus package; without it this fails rather than skips.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v promtool > /dev/null; then
  echo "test:rules: promtool is missing: apt-get install prometheus (Debian), or put promtool on PATH" >&2
  exit 1
fi
promtool check rules helm/candidate-search/files/alerts.yaml
promtool test rules deploy/prometheus/alerts.test.yaml
