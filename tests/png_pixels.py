"""Reading a PNG's pixels in the tests, to tell a picture from a blank page: the 8-bit RGB and
RGBA images that browsers and resvg write, without interlacing."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {2: 3, 6: 4}  # colour type: RGB, RGBA


@dataclass(frozen=True)
class Pixels:
    width: int
    height: int
    rows: list[bytes]  # each row's bytes, ``channels`` per pixel
    channels: int

    def colours(self) -> set[bytes]:
        step = self.channels
        return {row[x : x + 3] for row in self.rows for x in range(0, len(row), step)}

    def share_unlike(self, background: bytes = b"\xff\xff\xff") -> float:
        """The share of pixels whose colour is not ``background``."""
        step = self.channels
        other = sum(row[x : x + 3] != background for row in self.rows for x in range(0, len(row), step))
        return other / (self.width * self.height)


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
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                near = min(
                    (abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner)
                )
                line[x] = (line[x] + near[2]) & 0xFF
        rows.append(bytes(line))
        previous = bytes(line)
    return Pixels(width, height, rows, channels)
