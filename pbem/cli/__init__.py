"""The ``pbem`` command line: thin commands over library calls."""

from pbem.cli.app import app, main

__all__ = ["app", "main"]
