"""A saved office document's text, for the success checks of the office app modules.

`document_text(path)` reads what a person would read in the file: a text document one
paragraph (or heading) a line, a spreadsheet one row a line with its cells joined by tabs
(each sheet after the first behind a blank line). OpenDocument (.odt, .ods, and their
templates) and Office Open XML (.docx, .xlsx) are read with the standard library (zip + XML);
anything else (.csv, .txt, .html, .rtf...) is read as UTF-8 text, a BOM dropped. A file
that is not what its name says (a zip that is no document) is an InvalidInput naming it.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from winactions.agent import odf
from winactions.errors import InvalidInput

ODF = frozenset({".odt", ".ods", ".ott", ".ots"})
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_CELL_REF = re.compile(r"([A-Z]+)(\d+)")


def document_text(path: Path) -> str:
    """The document's text, as described above."""
    suffix = path.suffix.casefold()
    try:
        if suffix in ODF:
            return _odf_text(path)
        if suffix == ".docx":
            return _docx_text(path)
        if suffix == ".xlsx":
            return _xlsx_text(path)
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError) as exc:
        raise InvalidInput(f"{path} is not a readable {suffix} document: {exc}") from None
    return path.read_text(encoding="utf-8-sig", errors="replace")


def _odf_text(path: Path) -> str:
    if odf.is_spreadsheet(path):
        sheets = [odf.read_sheet(path, n) for n in range(odf.sheet_count(path))]
        return "\n\n".join("\n".join("\t".join(row) for row in rows) for rows in sheets)
    return "\n".join(text for _level, text in odf.blocks(path))


def _xml(path: Path, member: str) -> ElementTree.Element:
    with zipfile.ZipFile(path) as z:
        return ElementTree.fromstring(z.read(member))


def _docx_text(path: Path) -> str:
    body = _xml(path, "word/document.xml")
    lines = []
    for paragraph in body.iter(f"{W}p"):
        parts = []
        for node in paragraph.iter():
            if node.tag == f"{W}t":
                parts.append(node.text or "")
            elif node.tag == f"{W}tab":
                parts.append("\t")
        lines.append("".join(parts))
    return "\n".join(lines)


def _xlsx_text(path: Path) -> str:
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
    shared = []
    if "xl/sharedStrings.xml" in names:
        for item in _xml(path, "xl/sharedStrings.xml").iter(f"{S}si"):
            shared.append("".join(t.text or "" for t in item.iter(f"{S}t")))
    sheets = sorted(
        (n for n in names if re.fullmatch(r"xl/worksheets/sheet\d+\.xml", n)), key=lambda n: int(re.sub(r"\D", "", n))
    )
    return "\n\n".join(_xlsx_sheet(_xml(path, name), shared) for name in sheets)


def _xlsx_sheet(sheet: ElementTree.Element, shared: list[str]) -> str:
    rows: dict[int, dict[int, str]] = {}
    for cell in sheet.iter(f"{S}c"):
        found = _CELL_REF.fullmatch(cell.get("r", ""))
        if found is None:
            continue
        value = cell.find(f"{S}v")
        kind = cell.get("t")
        if kind == "s" and value is not None and value.text is not None:
            text = shared[int(value.text)]
        elif kind == "inlineStr":
            text = "".join(t.text or "" for t in cell.iter(f"{S}t"))
        else:
            text = value.text or "" if value is not None else ""
        rows.setdefault(int(found.group(2)), {})[odf.column_number(found.group(1))] = text
    lines = []
    for number in range(1, max(rows, default=0) + 1):
        cells = rows.get(number, {})
        lines.append("\t".join(cells.get(c, "") for c in range(1, max(cells, default=0) + 1)))
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
