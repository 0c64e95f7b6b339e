"""A self-contained HTML page: the picture inline, the score table and the log.

The page loads nothing: no script, no font, no image from elsewhere, so it opens the same in a
mail client, offline, or from a file a player saved, and tells nobody it was opened.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.render.picture.svg import escape_attribute, escape_text

STYLE = """
body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;color:#1a1a1a;
margin:0 auto;padding:8px;max-width:660px}
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.4em}
table{border-collapse:collapse;width:100%;font-size:.9em}
th,td{border-bottom:1px solid #ccc;padding:3px 4px;text-align:right}
th:first-child,td:first-child{text-align:left}
.letter{display:inline-block;min-width:1.3em;text-align:center;font-weight:bold;border:1px solid #000;
border-radius:3px;margin-right:.3em}
.log{font-size:.8em;font-family:monospace;white-space:pre-wrap;list-style:none;padding:0}
.picture svg{display:block;width:100%;height:auto}
.wide{overflow-x:auto}
"""


POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def html_page(
    title: str,
    picture: str,
    *,
    score: Mapping[str, Mapping[str, int]] | None,
    letters: Mapping[str, tuple[str, str, str]],
    log: Sequence[str],
    note: str = "",
) -> str:
    """``picture`` is an SVG document; ``letters`` each seat's colour, text colour and letter."""
    body = [f"<h1>{escape_text(title)}</h1>"]
    if note:
        body.append(f"<p>{escape_text(note)}</p>")
    inline = picture.split("?>", 1)[1].strip() if picture.startswith("<?xml") else picture
    body.append(f'<div class="picture">{inline}</div>')
    if score:
        columns = list(next(iter(score.values())))
        # a game with many categories (one has ten) scrolls on a phone, not the page
        body.append("<h2>Score</h2>")
        body.append('<div class="wide"><table><thead><tr><th>player</th>')
        body.extend(f"<th>{escape_text(column)}</th>" for column in columns)
        body.append("</tr></thead><tbody>")
        for seat, row in score.items():
            body.append(f"<tr><td>{_seat(seat, letters)}</td>")
            body.extend(f"<td>{row[column]}</td>" for column in columns)
            body.append("</tr>")
        body.append("</tbody></table></div>")
    if log:
        body.append('<h2>Log</h2><ul class="log">')
        body.extend(f"<li>{escape_text(line)}</li>" for line in log)
        body.append("</ul>")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        # a page that may not load anything: the browser refuses even what a crafted name slipped in
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        f"<title>{escape_text(title)}</title><style>{STYLE}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _seat(seat: str, letters: Mapping[str, tuple[str, str, str]]) -> str:
    if seat not in letters:
        return escape_text(seat)
    colour, ink, letter = letters[seat]
    style = escape_attribute(f"background:{colour};color:{ink}")
    return f'<span class="letter" style="{style}">{escape_text(letter)}</span>{escape_text(seat)}'
