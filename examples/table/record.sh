#!/usr/bin/env bash
# Record a table game from an actions file, one `pbem table add` per line, as a player would.
#   usage: bash examples/table/record.sh PBEM GAME PLAYERS ACTIONS OUT [pbem table new options...]
set -euo pipefail
pbem="$1" game="$2" players="$3" actions="$4" out="$5"
shift 5
rm -f "$out"
PBEM_NOW=2026-11-21T19:00:00Z "$pbem" table new "$out" --game "$game" --players "$players" "$@"
minute=0
while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    minute=$((minute + 1))
    stamp="$(printf '2026-11-21T%02d:%02d:00Z' $((19 + minute / 60)) $((minute % 60)))"
    # shellcheck disable=SC2086  # the action's words are the command's arguments
    PBEM_NOW="$stamp" PBEM_TABLE_BY=host "$pbem" table add "$out" $line >/dev/null
done < "$actions"
"$pbem" table verify "$out"
