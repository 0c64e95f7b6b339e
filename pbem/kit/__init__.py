"""Game-neutral mechanics the games compose: what no one game owns."""
