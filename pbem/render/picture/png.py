"""A PNG of a picture, for mail clients that show no SVG.

resvg-py renders with resvg (Rust, statically linked in its wheel), so it needs no system
library: cairosvg, the usual choice, needs the cairo library installed apart from pip.
"""

from __future__ import annotations

from pbem.errors import UsageError

SCALE = 2  # twice the picture's size, sharp on a phone's screen


def png(picture: str, zoom: int = SCALE) -> bytes:
    try:
        import resvg_py
    except ImportError:
        raise UsageError("--png needs the resvg-py package: pip install 'pbem[pictures]'") from None
    try:
        return resvg_py.svg_to_bytes(svg_string=picture, background="#ffffff", zoom=zoom)
    except ValueError as exc:
        raise UsageError(f"the picture could not be rendered as PNG: {exc}") from None
