# The venv of pinned tools behind a CI check (ci/lint.sh, ci/docs.sh, ci/check_workflows.sh): a
# requirements file's pins installed into a folder of their own, and installed again only when
# that file changes (the copy in the venv says what it holds). Source this file, then call
#   dyng_tool_venv REQUIREMENTS VENV LOG_FUNCTION
source "$(dirname "${BASH_SOURCE[0]}")/find_python.sh"

dyng_tool_venv() {
  local requirements=$1 venv=$2 log=$3
  if cmp -s "$requirements" "$venv/installed.txt" 2>/dev/null; then return 0; fi
  dyng_find_python
  "$log" "installing $requirements into $venv with $DYNG_PYTHON"
  rm -rf "$venv"
  "$DYNG_PYTHON" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/installed.txt"
}
