#!/usr/bin/env bash
# driftd runs no application code (docs/architecture.md §11): its symbols include nothing of
# apps/ (the namespaces drift::heat2d, ::particles, ::chatter, ::pingpong, ::ballast), nor the
# SDK's Application, task host or app_main. Usage: links_no_application.sh DRIFTD
set -euo pipefail
driftd=$1
found=$(nm -C "$driftd" | grep -E 'drift::(heat2d|particles|chatter|pingpong|ballast)::|drift::Application|drift::WorkerHost|drift::app_main|vtable for drift::Task' || true)
if [[ -n "$found" ]]; then
  echo "driftd links application code:"
  head -20 <<<"$found"
  exit 1
fi
echo "driftd: $(nm -C "$driftd" | wc -l) symbols, none of an application"
