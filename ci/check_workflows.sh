#!/usr/bin/env bash
# The checks the GitHub workflows get without running them (they cannot run on the machines that
# run .ci/run): each file of .github/workflows/ against check-jsonschema's vendored GitHub
# workflow schema, and zizmor's security audit, offline. The tools are pinned in
# ci/workflow-tools.txt and installed into their own venv (build/workflow-tools). The workflows'
# own invariants are tests/packaging/test_workflows.py's. Usage: ci/check_workflows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/find_python.sh

log() { printf '[check_workflows %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

venv=build/workflow-tools
if ! cmp -s ci/workflow-tools.txt "$venv/installed.txt" 2>/dev/null; then
  dyng_find_python
  log "installing ci/workflow-tools.txt into $venv with $DYNG_PYTHON"
  rm -rf "$venv"
  "$DYNG_PYTHON" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r ci/workflow-tools.txt
  cp ci/workflow-tools.txt "$venv/installed.txt"
fi

workflows=(.github/workflows/*.yml)
log "check-jsonschema --builtin-schema vendor.github-workflows: ${#workflows[@]} files"
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}"
log "zizmor --offline .github/workflows (persona regular, every severity)"
"$venv/bin/zizmor" --offline --no-progress --color never --config .github/zizmor.yml \
  .github/workflows
log "workflows pass both checks"
