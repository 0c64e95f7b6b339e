#!/usr/bin/env bash
# Rebuild every example, then the pictures and the worked examples made from them: the signed
# three-player game start and its tampered copy (three key homes, one file passed between them),
# the complete four-player games (play-a-game.py, play-florence.py, play-principe.py), the game
# started by email (play-by-email.py), the recorded table games (make-table-examples.sh), the
# README's pictures (docs/pictures.py) and docs/game-file.md's examples (docs/examples.py). Keys are
# made in temporary directories and thrown away; only the signed game files are kept.
#
# The same command gives the same files on every run: every command runs at a fixed time, and what
# pbem would draw at random (keys, nonces) is drawn from the command instead (examples/homes.py).
# A complete game is played through pbem's command line, so this takes a while (about an hour).
#   usage: bash examples/make-examples.sh [PYTHON]     (PYTHON, default python3, imports pbem)
set -euo pipefail
python="${1:-python3}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export PBEM_PASSPHRASE="example only"

# pbem, with its random draws fixed
pbem="$work/pbem"
printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$python" "$here/homes.py" > "$pbem"
chmod +x "$pbem"

for seat in alice bruno chiara; do
    PBEM_HOME="$work/$seat" PBEM_NOW=2026-11-01T09:00:00Z "$pbem" key new "$seat" >/dev/null 2>&1
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

PBEM_HOME="$work/alice" "$pbem" verify "$game"
cp "$game" "$here/three-players.toml"

# The same game with alice's note altered after she signed it: verify must refuse it.
sed 's/Agreed - and I keep out of the Pope auction./Agreed - and Milan is yours too./' \
    "$here/three-players.toml" > "$here/tampered/forged-note.toml"

# The complete games, each played by four players of some sense from a fixed seed.
"$python" "$here/play-a-game.py" "$here/four-players.toml" --seed 1
"$python" "$here/play-a-game.py" "$here/four-players-b-side.toml" --seed 2 --side b
"$python" "$here/play-florence.py" "$here/florence-four-players.toml" --seed 3
"$python" "$here/play-principe.py" "$here/principe-four-players.toml" --seed 1
"$python" "$here/play-by-email.py" "$here/three-players-by-email.toml"

bash "$here/make-table-examples.sh" "$pbem"

"$python" "$root/docs/pictures.py"
"$python" "$root/docs/examples.py"
