"""The groups a genesis can name for its hidden decks, and what it means when it names none."""

from __future__ import annotations

from pbem.crypto.curve import EDWARDS25519
from pbem.crypto.groups import MODP_2048, Group
from pbem.errors import GameFileError

OLD_GROUP: Group = MODP_2048  # what a genesis that names no group means: every game made before
NEW_GROUP: Group = EDWARDS25519  # what a new game names
GROUPS: dict[str, Group] = {group.name: group for group in (EDWARDS25519, MODP_2048)}


def by_name(name: object) -> Group:
    """The group a genesis names (its ``group`` field); None, an absent field, is the old group."""
    if name is None:
        return OLD_GROUP
    found = GROUPS.get(name) if isinstance(name, str) else None
    if found is None:
        raise GameFileError(f"group: {name!r} is not one of {', '.join(GROUPS)}")
    return found
