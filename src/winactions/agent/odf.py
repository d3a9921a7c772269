"""OpenDocument files (.odt, .ods) written and read with the standard library alone.

A document is a zip whose `content.xml` holds the text or the table. Writing makes the
smallest package LibreOffice opens as its own (a stored `mimetype` first, a manifest, the
content): set-ups of tests and trials. Reading follows the spec's repeat attributes, so a
sheet LibreOffice saved reads back cell by cell: the office app modules' success checks
(`documents.document_text`) and the tests that check what LibreOffice saved.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree import ElementTree
from xml.sax.saxutils import escape

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
}
_DECLARE = " ".join(f'xmlns:{k}="{v}"' for k, v in NS.items())
_MIME = {
    "text": "application/vnd.oasis.opendocument.text",
    "spreadsheet": "application/vnd.oasis.opendocument.spreadsheet",
}


def _package(path: Path, kind: str, body: str) -> Path:
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_DECLARE} '
        f'office:version="1.3"><office:body><office:{kind}>{body}</office:{kind}></office:body>'
        "</office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest='
        '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{_MIME[kind]}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), _MIME[kind], compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return path


def write_text_document(path: Path, paragraphs: list[str]) -> Path:
    """A .odt of plain paragraphs."""
    body = "".join(f"<text:p>{escape(p)}</text:p>" for p in paragraphs)
    return _package(path, "text", body)


def write_sheet(path: Path, rows: list[list[str | float]]) -> Path:
    """A .ods of one sheet; numbers are stored as numbers, everything else as text."""
    out = ['<table:table table:name="Sheet1">']
    for row in rows:
        out.append("<table:table-row>")
        for value in row:
            if isinstance(value, (int, float)):
                out.append(
                    f'<table:table-cell office:value-type="float" office:value="{value}">'
                    f"<text:p>{value}</text:p></table:table-cell>"
                )
            else:
                out.append(
                    f'<table:table-cell office:value-type="string"><text:p>{escape(value)}</text:p></table:table-cell>'
                )
        out.append("</table:table-row>")
    out.append("</table:table>")
    return _package(path, "spreadsheet", "".join(out))


def _content(path: Path) -> ElementTree.Element:
    with zipfile.ZipFile(path) as z:
        return ElementTree.fromstring(z.read("content.xml"))


def _q(prefix: str, name: str) -> str:
    return f"{{{NS[prefix]}}}{name}"


def _text_of(element: ElementTree.Element) -> str:
    """The text a reader sees in an element: its runs and spans, `text:s` as spaces."""
    parts = [element.text or ""]
    for child in element:
        if child.tag == _q("text", "s"):
            parts.append(" " * int(child.get(_q("text", "c"), "1")))
        elif child.tag == _q("text", "tab"):
            parts.append("\t")
        else:
            parts.append(_text_of(child))
        parts.append(child.tail or "")
    return "".join(parts)


def is_spreadsheet(path: Path) -> bool:
    """Whether the document's body is a spreadsheet (else text, a drawing...)."""
    return _content(path).find(f".//{_q('office', 'spreadsheet')}") is not None


def sheet_count(path: Path) -> int:
    return len(list(_content(path).iter(_q("table", "table"))))


def blocks(path: Path) -> list[tuple[int, str]]:
    """The text document's paragraphs and headings in order: (outline level, text), level 0
    for a paragraph, 1.. for a heading (`text:h`). Paragraphs in tables and lists are included."""
    found: list[tuple[int, str]] = []
    body = _content(path).find(f".//{_q('office', 'body')}")
    if body is None:
        return found
    for element in body.iter():
        if element.tag == _q("text", "p"):
            found.append((0, _text_of(element)))
        elif element.tag == _q("text", "h"):
            found.append((int(element.get(_q("text", "outline-level"), "1")), _text_of(element)))
    return found


def read_sheet(path: Path, sheet: int = 0) -> list[list[str]]:
    """The sheet's cells as text (a number as LibreOffice shows it in `text:p`), rows and
    columns expanded from their repeat counts, trailing empty cells and rows dropped."""
    tables = _content(path).iter(_q("table", "table"))
    table = list(tables)[sheet]
    rows: list[list[str]] = []
    for row in table.iter(_q("table", "table-row")):
        cells: list[str] = []
        for cell in row:
            if cell.tag not in (_q("table", "table-cell"), _q("table", "covered-table-cell")):
                continue
            text = "\n".join(_text_of(p) for p in cell.findall(_q("text", "p")))
            cells.extend([text] * min(int(cell.get(_q("table", "number-columns-repeated"), "1")), 1024))
        while cells and cells[-1] == "":
            cells.pop()
        rows.extend([cells] * min(int(row.get(_q("table", "number-rows-repeated"), "1")), 1024))
    while rows and not rows[-1]:
        rows.pop()
    return rows


def bold_runs(path: Path) -> tuple[list[str], list[str]]:
    """(each paragraph's text, the text of every run styled bold) of a .odt."""
    root = _content(path)
    bold_styles = set()
    for style in root.iter(_q("style", "style")):
        props = style.find(_q("style", "text-properties"))
        if props is not None and props.get(_q("fo", "font-weight")) in ("bold", "700"):
            bold_styles.add(style.get(_q("style", "name")))
    paragraphs = [_text_of(p) for p in root.iter(_q("text", "p"))]
    spans = root.iter(_q("text", "span"))
    runs = [_text_of(span) for span in spans if span.get(_q("text", "style-name")) in bold_styles]
    for p in root.iter(_q("text", "p")):  # a whole paragraph made bold carries the style itself
        if p.get(_q("text", "style-name")) in bold_styles:
            runs.append(_text_of(p))
    return paragraphs, runs


def bold_cells(path: Path, sheet: int = 0) -> set[str]:
    """Addresses ("B5") of the cells of a .ods sheet whose own cell style is bold."""
    root = _content(path)
    bold = {
        style.get(_q("style", "name"))
        for style in root.iter(_q("style", "style"))
        if (props := style.find(_q("style", "text-properties"))) is not None
        and props.get(_q("fo", "font-weight")) in ("bold", "700")
    }
    table = list(root.iter(_q("table", "table")))[sheet]
    found: set[str] = set()
    row = 0
    for line in table.iter(_q("table", "table-row")):
        rows = min(int(line.get(_q("table", "number-rows-repeated"), "1")), 1024)
        col = 0
        for cell in line:
            if cell.tag not in (_q("table", "table-cell"), _q("table", "covered-table-cell")):
                continue
            span = min(int(cell.get(_q("table", "number-columns-repeated"), "1")), 1024)
            if cell.get(_q("table", "style-name")) in bold:
                found |= {_address(r, c) for r in range(row, row + rows) for c in range(col, col + span)}
            col += span
        row += rows
    return found


def _address(row: int, col: int) -> str:
    return f"{column_letters(col + 1)}{row + 1}"


def column_letters(number: int) -> str:
    """A sheet's column by number (1 → A, 27 → AA) as its letters."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def column_number(letters: str) -> int:
    """A sheet's column by letters (A → 1, AA → 27, case ignored) as its number."""
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number
