#!/usr/bin/env bash
# The documentation site, as CI builds it: mkdocs.yml's pages and API reference, in strict mode
# (a broken link, a missing page or a docstring griffe cannot read fails the build), into
# build/site. The API pages are read statically from python/ (sources and .pyi stubs), so
# neither a build of dyng nor its native module is needed. The tools are pinned in
# ci/docs-tools.txt and installed into their own venv (build/docs-tools), reinstalled only when
# that file changes. Usage: ci/docs.sh [--serve]   (--serve: a live preview on 127.0.0.1:8000)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/tool_venv.sh

log() { printf '[docs %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

venv=build/docs-tools
dyng_tool_venv ci/docs-tools.txt "$venv" log

# Material's notice about its successor is not about this site; it would bury the build log.
export NO_MKDOCS_2_WARNING=1
case "${1:-}" in
  --serve) exec "$venv/bin/mkdocs" serve --strict ;;
  "") ;;
  *) echo "ci/docs.sh: unknown argument '$1'; pass nothing (build) or --serve" >&2
     exit 2 ;;
esac
log "mkdocs build --strict (mkdocs.yml) into build/site"
# Not --quiet: it drops warnings below the logger's level, so strict mode never counts them and
# a broken link passes.
"$venv/bin/mkdocs" build --strict
log "passed: build/site/index.html"
