#!/usr/bin/env bash
# The checks the GitHub workflows get without running them (they cannot run on the machines that
# run .ci/run): each file of .github/workflows/ against check-jsonschema's vendored GitHub
# workflow schema, and zizmor's security audit, offline. The tools are pinned in
# ci/workflow-tools.txt and installed into their own venv (build/workflow-tools). The workflows'
# own invariants are tests/packaging/test_workflows.py's. Usage: ci/check_workflows.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/tool_venv.sh

log() { printf '[check_workflows %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

venv=build/workflow-tools
dyng_tool_venv ci/workflow-tools.txt "$venv" log

workflows=(.github/workflows/*.yml)
log "check-jsonschema --builtin-schema vendor.github-workflows: ${#workflows[@]} files"
"$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}"
log "zizmor --offline .github/workflows (persona regular, every severity)"
"$venv/bin/zizmor" --offline --no-progress --color never --config .github/zizmor.yml \
  .github/workflows
log "workflows pass both checks"
