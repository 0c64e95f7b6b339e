"""Reading a PNG's pixels in the tests, to tell a picture from a blank page: the 8-bit RGB and
RGBA images that browsers and resvg write, without interlacing."""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {2: 3, 6: 4}  # colour type: RGB, RGBA


@dataclass(frozen=True)
class Pixels:
    width: int
    height: int
    rows: list[bytes]  # each row's bytes, ``channels`` per pixel
    channels: int

    @cached_property
    def counts(self) -> Counter[tuple[int, ...]]:
        """How many pixels have each colour (red, green, blue), alpha left out."""
        step = self.channels
        found: Counter[tuple[int, ...]] = Counter()
        for row in self.rows:
            # each channel's bytes a pixel apart, zipped back: the loop runs in C, not in Python
            found.update(zip(row[0::step], row[1::step], row[2::step], strict=True))
        return found

    def colours(self) -> set[tuple[int, ...]]:
        return set(self.counts)

    def share_unlike(self, background: tuple[int, ...] = (255, 255, 255)) -> float:
        """The share of pixels whose colour is not ``background``."""
        return 1 - self.counts[background] / (self.width * self.height)


def read(data: bytes) -> Pixels:
    if not data.startswith(SIGNATURE):
        raise ValueError("not a PNG")
    position, header, compressed = len(SIGNATURE), b"", bytearray()
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            compressed += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in CHANNELS or interlace:
        raise ValueError(f"a PNG these tests do not read: depth {depth}, colour type {colour}")
    channels = CHANNELS[colour]
    raw = zlib.decompress(bytes(compressed))
    stride = width * channels
    rows: list[bytes] = []
    previous = bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        rows.append(_unfilter(raw[start], raw[start + 1 : start + 1 + stride], previous, channels))
        previous = rows[-1]
    return Pixels(width, height, rows, channels)


def _unfilter(kind: int, data: bytes, previous: bytes, channels: int) -> bytes:
    """One row with its filter undone; each filter type on its own, since a loop that weighs
    every type for every byte made reading a desktop screenshot take seconds."""
    if kind == 0:
        return bytes(data)
    if kind == 2:
        return bytes((a + b) & 0xFF for a, b in zip(data, previous, strict=True))
    line = bytearray(data)
    if kind == 1:
        for x in range(channels, len(line)):
            line[x] = (line[x] + line[x - channels]) & 0xFF
        return bytes(line)
    if kind == 3:
        for x in range(len(line)):
            left = line[x - channels] if x >= channels else 0
            line[x] = (line[x] + (left + previous[x]) // 2) & 0xFF
        return bytes(line)
    for x in range(len(line)):
        left = line[x - channels] if x >= channels else 0
        up = previous[x]
        corner = previous[x - channels] if x >= channels else 0
        guess = left + up - corner
        to_left, to_up, to_corner = abs(guess - left), abs(guess - up), abs(guess - corner)
        if to_left <= to_up and to_left <= to_corner:
            near = left
        elif to_up <= to_corner:
            near = up
        else:
            near = corner
        line[x] = (line[x] + near) & 0xFF
    return bytes(line)
