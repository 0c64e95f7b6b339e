#!/usr/bin/env bash
# Rebuild the example games exactly as players would make them: three players, three key homes,
# one file passed between them. Keys are made in a temporary directory and thrown away; only the
# signed game files (public keys and signatures) are kept.
#   usage: bash examples/make-examples.sh [PBEM]     (PBEM defaults to the pbem on PATH)
set -euo pipefail
pbem="${1:-pbem}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export PBEM_PASSPHRASE="example only"

for seat in alice bruno chiara; do
    PBEM_HOME="$work/$seat" "$pbem" key new "$seat" >/dev/null
done

game="$work/three-players.toml"
PBEM_HOME="$work/alice" PBEM_NOW=2026-11-02T18:00:00Z \
    "$pbem" new "$game" --game princes-of-the-renaissance --players alice,bruno,chiara --as alice \
    --option deadline_days=3
PBEM_HOME="$work/bruno" PBEM_NOW=2026-11-03T07:45:12Z "$pbem" join "$game" --as bruno
PBEM_HOME="$work/chiara" PBEM_NOW=2026-11-03T21:10:40Z "$pbem" join "$game" --as chiara
PBEM_HOME="$work/bruno" PBEM_NOW=2026-11-04T08:02:00Z \
    "$pbem" note "$game" "If Venice goes to war this decade, I back Venice. Milan is yours." --as bruno
PBEM_HOME="$work/alice" PBEM_NOW=2026-11-04T12:30:00Z \
    "$pbem" note "$game" "Agreed - and I keep out of the Pope auction." --as alice

"$pbem" verify "$game"
cp "$game" "$here/three-players.toml"

# The same game with alice's note altered after she signed it: verify must refuse it.
sed 's/Agreed - and I keep out of the Pope auction./Agreed - and Milan is yours too./' \
    "$here/three-players.toml" > "$here/tampered/forged-note.toml"
