# Sourced by the ci/*.sh scripts: sets DYNG_PYTHON to an interpreter that dyng supports (>= 3.12).
# Order: $DYNG_PYTHON if set, then python3.13/python3.12 on PATH, then pyenv's installs, then python3.
# Every candidate is run: a pyenv shim on PATH exits 127 unless its version is selected.

dyng_python_ok() {
  "$1" -c 'import sys; raise SystemExit(0 if sys.version_info >= (3, 12) else 1)' 2>/dev/null
}

dyng_find_python() {
  local candidate
  local candidates=()
  [ -n "${DYNG_PYTHON:-}" ] && candidates+=("$DYNG_PYTHON")
  candidates+=(python3.13 python3.12)
  if command -v pyenv >/dev/null 2>&1; then
    local root
    root=$(pyenv root)
    candidates+=("$root"/versions/3.13*/bin/python3 "$root"/versions/3.12*/bin/python3)
  fi
  candidates+=(python3)
  for candidate in "${candidates[@]}"; do
    if command -v "$candidate" >/dev/null 2>&1 && dyng_python_ok "$candidate"; then
      DYNG_PYTHON=$(command -v "$candidate")
      export DYNG_PYTHON
      return 0
    fi
  done
  echo "error: dyng needs Python >= 3.12 and none was found (tried: ${candidates[*]});" \
       "install one or set DYNG_PYTHON=/path/to/python3.12" >&2
  return 1
}

# Run directly (not sourced), it prints the interpreter it found: "$(ci/find_python.sh)" -m pip ...
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  dyng_find_python && echo "$DYNG_PYTHON"
fi
