#!/usr/bin/env bash
# Rebuild the recorded table games in examples/table/ from their actions files, one
# `pbem table add` per line, exactly as players at a table would type them.
#   usage: bash examples/make-table-examples.sh [PBEM]     (PBEM defaults to the pbem on PATH;
#   make-examples.sh gives the one whose random draws are fixed, so the logs are the same each run)
set -euo pipefail
pbem="${1:-pbem}"
here="$(cd "$(dirname "$0")" && pwd)/table"
bash "$here/record.sh" "$pbem" princes-of-the-renaissance alice,bob,carla \
    "$here/princes-of-the-renaissance.actions" "$here/princes-of-the-renaissance.toml"
bash "$here/record.sh" "$pbem" il-principe ann,ben,cat \
    "$here/il-principe.actions" "$here/il-principe.toml" --option rich_start=true
bash "$here/record.sh" "$pbem" princes-of-florence alice,bob,carla \
    "$here/princes-of-florence.actions" "$here/princes-of-florence.toml"
