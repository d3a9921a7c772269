"""A local HTML page of about N elements for the Chromium rows of benchmarks/endtoend.py.

A short form on top, then a table whose rows each hold a link, a button, a checkbox and a
text field: 10 elements a row (tr, 4 td, a, button, label, input, input). Most rows lie below
the fold, as on a real long page.

usage: python benchmarks/apps/web_page.py OUT.html [ELEMENTS]
"""

from __future__ import annotations

import sys
from pathlib import Path

TITLE = "Bench page"
PER_ROW = 10


def page(elements: int = 3000) -> tuple[str, int]:
    """(html, elements in the body)."""
    head = [
        "<h1>Orders</h1>",
        '<form><label>Search <input id="q" type="search"></label> <button type="button">Find</button>',
        '<select aria-label="Status"><option>Open</option><option>Closed</option></select></form>',
        "<table><thead><tr><th>Id</th><th>Item</th><th>Action</th><th>Note</th></tr></thead><tbody>",
    ]
    count = 1 + 6 + 1 + 2 + 1 + 1 + 5 + 1  # h1, form+label+input+button+select+2 options, table.. header
    rows = []
    i = 0
    while count + PER_ROW <= elements:
        i += 1
        rows.append(
            f'<tr><td>{i}</td><td><a href="#r{i}">Item {i}</a></td>'
            f'<td><button type="button">Open {i}</button></td>'
            f'<td><label><input type="checkbox"> done</label> '
            f'<input aria-label="Note {i}" value="n{i}"></td></tr>'
        )
        count += PER_ROW
    html = (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{TITLE}</title></head><body>"
        + "".join(head)
        + "".join(rows)
        + "</tbody></table></body></html>"
    )
    return html, count


def write_page(path: Path, elements: int = 3000) -> int:
    html, count = page(elements)
    path.write_text(html)
    return count


if __name__ == "__main__":
    print(write_page(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3000))
