"""Email as the way a game travels: messages that carry the entries a recipient lacks, read back
and applied to the local copy after verifying everything, and the library of a player's games."""
