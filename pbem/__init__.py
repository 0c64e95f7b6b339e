"""pbem: play board games by email, with signed game files and no referee."""

__version__ = "0.1.0.dev0"
