"""The `writer` app module's templates run for real on LibreOffice Writer, with no model.

Each task is phrased as a person asks it, planned by the module's template (0 model calls),
and checked in what Writer saved: the .odt parsed (paragraphs, headings, bold styles), the
.docx read back.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import run_in_process
from tests.e2e.helpers.module_app import template_succeeded
from tests.e2e.helpers.office_docs import Office
from winactions.agent import TaskRunner, TaskStatus
from winactions.agent.documents import document_text
from winactions.agent.odf import blocks, bold_runs, write_text_document

pytestmark = pytest.mark.desktop

TEXT = ["Quarterly report", "Sales grew in every region."]


@pytest.fixture(scope="module")
def office(desktop, tmp_path_factory) -> Iterator[Office]:
    app = Office(desktop, tmp_path_factory.mktemp("writer"))
    yield app
    app.stop()


def document(folder: Path, name: str = "report.odt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return write_text_document(folder / name, TEXT)


def run(desktop, task: str, template: str):
    result = TaskRunner(desktop).run(task)
    template_succeeded(result, "writer", template)
    return result


def test_write_a_new_document_and_save_it_as_a_path(office, tmp_path):
    target = tmp_path / "letter.odt"
    with office.open("--writer", title="Untitled") as desktop:
        run(
            desktop,
            f'in writer, write "Dear Ada, the parts have shipped." and save it as {target}',
            "write_and_save_as",
        )
    assert blocks(target) == [(0, "Dear Ada, the parts have shipped.")]


def test_append_a_paragraph_and_save(office, tmp_path):
    path = document(tmp_path)
    with office.open("--writer", str(path), title="report.odt") as desktop:
        run(desktop, 'add a paragraph "Costs fell by a tenth." and save', "append_paragraph_and_save")
    assert blocks(path) == [(0, TEXT[0]), (0, TEXT[1]), (0, "Costs fell by a tenth.")]


def test_make_a_paragraph_a_heading_and_save_through_winctl_run(office, tmp_path):
    path = document(tmp_path)
    with office.open("--writer", str(path), title="report.odt"):
        done = run_in_process(["--json", "run", 'make "Quarterly report" a heading and save'], office.env)
        assert done.code == 0, done.out + done.err
        body = done.json["result"]["run"]
        assert (body["status"], body["template"], body["model"]["calls"]) == ("success", "heading_and_save", 0)
    assert blocks(path) == [(1, TEXT[0]), (0, TEXT[1])]


def test_make_the_whole_text_bold_and_save(office, tmp_path):
    path = document(tmp_path)
    with office.open("--writer", str(path), title="report.odt") as desktop:
        result = TaskRunner(desktop).run("make the whole text bold in writer and save")
        assert (result.template, result.model["calls"]) == ("bold_all_and_save", 0)
        # bold is not in the tree's text: no code can check it, so without a model the run is
        # at best unverified (success where success is not yet checked), never failed
        assert result.status.value in ("success", "unverified"), result.error
    paragraphs, bold = bold_runs(path)
    assert paragraphs == TEXT and sorted(bold) == sorted(TEXT)


def test_save_as_odt(office, tmp_path):
    path = document(tmp_path)
    target = tmp_path / "copy.odt"
    with office.open("--writer", str(path), title="report.odt") as desktop:
        run(desktop, f"save the document as {target}", "save_as_odt")
        assert "copy.odt - LibreOffice Writer" in desktop.state().window.title
    assert blocks(target) == [(0, TEXT[0]), (0, TEXT[1])]


def test_save_as_docx(office, tmp_path):
    path = document(tmp_path)
    target = tmp_path / "report.docx"
    with office.open("--writer", str(path), title="report.odt") as desktop:
        run(desktop, f"save it as a word document {target}", "save_as_format")
    with zipfile.ZipFile(target) as z:
        assert "word/document.xml" in z.namelist()
    assert document_text(target) == "\n".join(TEXT)


def test_save_into_a_missing_folder_is_not_a_success(office, tmp_path):
    path = document(tmp_path)
    target = tmp_path / "nowhere" / "report.docx"
    with office.open("--writer", str(path), title="report.odt") as desktop:
        result = TaskRunner(desktop).run(f"save the document as {target}")
        assert result.template == "save_as_format" and result.model["calls"] == 0
        assert result.status is not TaskStatus.SUCCESS, result
    assert not target.exists() and not target.parent.exists()
