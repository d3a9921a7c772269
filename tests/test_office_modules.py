"""The office app modules' routing and their `read_file` hook, without a desktop.

Every shipped module's template example routes to that module (a new module must not steal
another's tasks), and the calc/writer handlers read what LibreOffice writes: OpenDocument,
Office Open XML and CSV, checked against files made here with the standard library.
"""

from __future__ import annotations

import importlib.util
import zipfile

import pytest

from winactions.agent.apps import BUILTIN, ModuleRegistry
from winactions.agent.odf import write_sheet, write_text_document
from winactions.agent.plan import parse_plan
from winactions.errors import InvalidInput

EXAMPLES = {
    "calc": {
        "in calc, set C3 to 42 and save": "set_cell_and_save",
        "put 7 into B2 and save": "set_cell_and_save",
        "fill C2:C4 with ok and save": "fill_range_and_save",
        "put 0 in every cell of A1:A9 and save": "fill_range_and_save",
        "put the sum of B2:B4 into B5 and save": "sum_into_cell_and_save",
        "sum A1:A5 into A6 in the spreadsheet and save": "sum_into_cell_and_save",
        "save the spreadsheet as /tmp/out/copy.ods": "save_as_ods",
        "save it as ~/stock.xlsx": "save_as_xlsx",
        "export the sheet to /tmp/stock.csv": "save_as_csv",
    },
    "writer": {
        'in writer, write "Dear Ada" and save it as /tmp/letter.odt': "write_and_save_as",
        'add a paragraph "Costs fell." and save': "append_paragraph_and_save",
        'make "Quarterly report" a heading and save': "heading_and_save",
        "make the whole text bold in writer and save": "bold_all_and_save",
        "save the document as /tmp/copy.odt": "save_as_odt",
        "save it as a word document /tmp/report.docx": "save_as_format",
    },
    "mousepad": {
        'write "hello" in mousepad and save': "write_and_save",
        "add line world and save": "append_line_and_save",
    },
}


@pytest.mark.parametrize(
    ("module", "task", "template"), [(m, t, n) for m, ts in EXAMPLES.items() for t, n in ts.items()]
)
def test_each_example_routes_to_its_module_and_template(module, task, template):
    registry = ModuleRegistry.load()
    routed, _score = registry.route(task)
    assert routed is not None and routed.name == module, (task, routed and routed.name)
    planned = routed.template_plan(task)
    assert planned is not None and planned[1] == template, task


def test_a_save_as_template_takes_the_file_name_for_its_title_check():
    calc = ModuleRegistry.load().get("calc")
    assert calc is not None
    plan, name = calc.template_plan("save the spreadsheet as /tmp/out/copy.ods")  # type: ignore[misc]
    assert name == "save_as_ods"
    assert plan.analysis["parameters"] == {"path": "/tmp/out/copy.ods", "name": "copy.ods"}
    assert plan.steps[-1].expect is not None and plan.steps[-1].expect.title == "copy.ods"


def read_file(module: str):
    path = BUILTIN / module / "handler.py"
    spec = importlib.util.spec_from_file_location(f"handler_{module}", path)
    assert spec is not None and spec.loader is not None
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)
    return code.read_file


@pytest.mark.parametrize("module", ["calc", "writer"])
def test_read_file_reads_opendocument_text_and_sheets(module, tmp_path):
    read = read_file(module)
    text = write_text_document(tmp_path / "a.odt", ["first", "second  with two spaces"])
    assert read(text) == "first\nsecond  with two spaces"
    sheet = write_sheet(tmp_path / "b.ods", [["item", "qty"], ["apple", 3]])
    assert read(sheet) == "item\tqty\napple\t3"
    (tmp_path / "c.csv").write_text("\ufeffitem,qty\n")
    assert read(tmp_path / "c.csv") == "item,qty\n"


def test_read_file_reads_docx_and_xlsx(tmp_path):
    read = read_file("writer")
    docx = tmp_path / "d.docx"
    with zipfile.ZipFile(docx, "w") as z:
        z.writestr(
            "word/document.xml",
            '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
            "<w:p><w:r><w:t>Dear </w:t></w:r><w:r><w:t>Ada</w:t></w:r></w:p><w:p><w:r><w:t>bye</w:t></w:r></w:p>"
            "</w:body></w:document>",
        )
    assert read(docx) == "Dear Ada\nbye"
    xlsx = tmp_path / "e.xlsx"
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    with zipfile.ZipFile(xlsx, "w") as z:
        z.writestr("xl/sharedStrings.xml", f'<sst xmlns="{main}"><si><t>item</t></si><si><t>pear</t></si></sst>')
        z.writestr(
            "xl/worksheets/sheet1.xml",
            f'<worksheet xmlns="{main}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row>'
            '<row r="3"><c r="A3" t="s"><v>1</v></c><c r="C3"><v>5</v></c></row></sheetData></worksheet>',
        )
    assert read(xlsx) == "item\n\npear\t\t5"


def test_a_broken_document_is_an_error_naming_it(tmp_path):
    bad = tmp_path / "broken.odt"
    bad.write_bytes(b"not a zip")
    with pytest.raises(InvalidInput, match=r"broken\.odt is not a readable \.odt document"):
        read_file("writer")(bad)


def hook_plan():
    path = BUILTIN / "calc" / "handler.py"
    spec = importlib.util.spec_from_file_location("handler_calc_plan", path)
    assert spec is not None and spec.loader is not None
    code = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(code)
    return code.plan


@pytest.mark.parametrize(
    ("task", "where", "typed", "last"),
    [
        ("in calc, fill column B from B2 with 3, 5, 8 and save", "B2:B4", "3\n5\n8\n", "B4\n"),
        ("fill column c in the spreadsheet with x, y", "C1:C2", "x\ny\n", "C2\n"),
        ("in calc, fill row 4 from Y4 with a, b, c, d", "Y4:AB4", "a\tb\tc\td\n", "AB4\n"),
    ],
)
def test_the_calc_plan_hook_fills_each_value_into_its_own_cell(task, where, typed, last):
    raw = hook_plan()(task, None)
    plan = parse_plan(raw, where="calc plan()")
    assert raw["analysis"]["parameters"]["range"] == where
    texts = [s.params.get("text") for s in plan.steps if s.action.value == "input_text"]
    assert typed in texts and texts[-1] == last
    check = next(s for s in plan.steps if s.params.get("text") == last)
    assert check.expect is not None and check.expect.text == {"Input line": typed.split()[-1]} and check.retry == 0
    assert (plan.steps[-1].params.get("keys") == "ctrl+s") == task.endswith("and save")


@pytest.mark.parametrize(
    "task",
    [
        "fill column B with 7 and save",  # one value: the fill_range template's
        "fill column B from C2 with 1, 2",  # a start outside the column
        "write hello in mousepad and save",
    ],
)
def test_the_calc_plan_hook_leaves_other_tasks_to_the_templates(task):
    assert hook_plan()(task, None) is None


def test_calc_and_writer_share_a_process_and_are_told_apart_by_the_window_in_front():
    """Both are soffice.bin: a task naming neither goes to the one whose window is in front."""
    registry = ModuleRegistry.load()
    for title, name in [("a.odt - LibreOffice Writer", "writer"), ("b.ods - LibreOffice Calc", "calc")]:
        module, _ = registry.route("save the document", "soffice.bin", title)
        assert module is not None and module.name == name, title
