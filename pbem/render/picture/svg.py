"""A small SVG writer: elements with attributes and children, text escaped.

SVG is XML text, so a writer of a few lines does the job without a dependency. Everything a
player typed (seat names, notes in the log) reaches a picture through ``Element.render``, which
escapes it and drops the characters XML 1.0 cannot carry, so no name can break the document or
inject markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

SVG_NS = "http://www.w3.org/2000/svg"

Value = str | int | float

# Characters XML 1.0 refuses even escaped (controls other than tab, newline and return; lone
# surrogates; U+FFFE and U+FFFF): a parser rejects the whole document if one slips in.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def escape_text(text: str) -> str:
    return clean(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attribute(text: str) -> str:
    return escape_text(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")


def number(value: float) -> str:
    """Coordinates as short as they can be: ``12`` rather than ``12.0``, two decimals at most."""
    if isinstance(value, int):
        return str(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attribute_name(name: str) -> str:
    # Python keywords and hyphens cannot be keyword arguments: class_ and font_size stand for them.
    return name.rstrip("_").replace("_", "-")


@dataclass
class Element:
    tag: str
    attributes: dict[str, Value] = field(default_factory=dict)
    children: list[Element | str] = field(default_factory=list)

    def add(self, *children: Element | str) -> Element:
        self.children.extend(children)
        return self

    def extend(self, children: Iterable[Element | str]) -> Element:
        self.children.extend(children)
        return self

    def render(self) -> str:
        parts: list[str] = []
        self._write(parts)
        return "".join(parts)

    def _write(self, parts: list[str]) -> None:
        attributes = "".join(
            f' {name}="{escape_attribute(number(value) if not isinstance(value, str) else value)}"'
            for name, value in self.attributes.items()
        )
        if not self.children:
            parts.append(f"<{self.tag}{attributes}/>")
            return
        parts.append(f"<{self.tag}{attributes}>")
        for child in self.children:
            if isinstance(child, Element):
                child._write(parts)
            else:
                parts.append(escape_text(child))
        parts.append(f"</{self.tag}>")


def element(tag: str, *children: Element | str, **attributes: Value) -> Element:
    return Element(tag, {_attribute_name(name): value for name, value in attributes.items()}, list(children))


def svg(width: float, height: float, *children: Element | str, **attributes: Value) -> Element:
    """The root element. A viewBox and a width of 100% with no fixed height let the picture shrink
    to a phone's width and keep its proportions; max-width keeps it from growing past its size."""
    return element(
        "svg",
        *children,
        xmlns=SVG_NS,
        viewBox=f"0 0 {number(width)} {number(height)}",
        width="100%",
        style=f"max-width:{number(width)}px;height:auto",
        **attributes,
    )


def rect(x: float, y: float, width: float, height: float, **attributes: Value) -> Element:
    return element("rect", x=x, y=y, width=width, height=height, **attributes)


def circle(cx: float, cy: float, r: float, **attributes: Value) -> Element:
    return element("circle", cx=cx, cy=cy, r=r, **attributes)


def line(x1: float, y1: float, x2: float, y2: float, **attributes: Value) -> Element:
    return element("line", x1=x1, y1=y1, x2=x2, y2=y2, **attributes)


def polygon(points: Iterable[tuple[float, float]], **attributes: Value) -> Element:
    return element("polygon", points=" ".join(f"{number(x)},{number(y)}" for x, y in points), **attributes)


def text(x: float, y: float, content: str, **attributes: Value) -> Element:
    return element("text", content, x=x, y=y, **attributes)


def group(*children: Element | str, **attributes: Value) -> Element:
    return element("g", *children, **attributes)


def title(content: str) -> Element:
    """A tooltip and an accessible name for the element it is the first child of."""
    return element("title", content)


def document(root: Element) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + root.render() + "\n"
