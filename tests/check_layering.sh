#!/bin/sh
# Layering (DESIGN section 5): src/common depends on nothing above it. Its
# files may include system headers (<...>) and, in quotes, only its own
# headers, the public header and the generated configuration.
# Usage: check_layering.sh SOURCE_DIR
set -eu
src=$1/src/common
bad=$(grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src"/*.c "$src"/*.h |
  grep -vE '"(common\.h|vgcrypto\.h|vg_config\.h)"' || true)
if [ -n "$bad" ]; then
  echo "$bad" >&2
  echo "check_layering: src/common includes a header from outside it" >&2
  echo "check_layering: 0 passed, 1 failed"
  exit 1
fi
echo "check_layering: 1 passed, 0 failed"
