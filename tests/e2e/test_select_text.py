"""`select-text`: a range of text inside an element selected through the app, checked in what
the app then does with it — a word of a Writer paragraph made bold by `keys ctrl+b`, read in
the saved file — and in a GTK entry's own selection."""

from __future__ import annotations

import subprocess
import time

import pytest

from tests.conftest import focused_fixture, stop_app
from tests.e2e.helpers.office import start_soffice
from winactions.agent import odf

pytestmark = pytest.mark.desktop

PARAGRAPH = "This is an important note; the important part is the word."
WRITER = "note.odt - LibreOffice Writer"


def test_a_word_selected_in_writer_is_made_bold_and_saved(winctl, desktop, tmp_path):
    doc = odf.write_text_document(tmp_path / "note.odt", [PARAGRAPH, "A second paragraph."])
    proc = start_soffice(desktop, tmp_path, "--writer", str(doc), title=WRITER)
    try:
        winctl("focus", WRITER)
        paragraph = winctl.find("Paragraph", PARAGRAPH)
        done = winctl("--json", "select-text", str(paragraph), "important", "--occurrence", "2").json["result"]
        at = PARAGRAPH.index("important", PARAGRAPH.index("important") + 1)
        assert done["detail"].startswith(f"selected 'important' (characters {at}-{at + 9}); read back"), done
        winctl("keys", "ctrl+b")
        before = doc.stat().st_mtime
        winctl("keys", "ctrl+s")
        time.sleep(1.0)
        if "Keep Current Format" in winctl("windows").out:  # a dialog may ask to keep ODF
            winctl("keys", "Enter")
        deadline = time.monotonic() + 20
        while doc.stat().st_mtime <= before:
            assert time.monotonic() < deadline, "Writer did not save the document"
            time.sleep(0.2)
        time.sleep(0.5)
        paragraphs, bold = odf.bold_runs(doc)
        assert paragraphs[:2] == [PARAGRAPH, "A second paragraph."], paragraphs
        assert bold == ["important"], bold  # the second "important" alone, not its neighbours
        doc_xml = _content_xml(doc)
        assert doc_xml.count(">important<") == 1, "only one of the two words is in a span of its own"
    finally:
        stop_app(proc)
        subprocess.run(["pkill", "-P", str(proc.pid)], check=False)


def _content_xml(path) -> str:
    import zipfile

    with zipfile.ZipFile(path) as z:
        return z.read("content.xml").decode()


def test_offsets_select_in_a_gtk_entry_and_bad_ranges_are_refused(winctl, desktop, tmp_path):
    with focused_fixture(desktop, winctl, tmp_path, "Select Fixture") as app:
        _offsets_and_refusals(winctl, app)


def _offsets_and_refusals(winctl, app):
    name = winctl.find("Edit", "Name")
    winctl("input", str(name), "hello wide world")
    done = winctl("--json", "select-text", str(name), "--start", "6", "--end", "10").json["result"]
    assert "selected 'wide' (characters 6-10); read back from the app" in done["detail"], done
    winctl("type", "narrow")  # typing replaces the selection: the app's own proof of what was selected
    app.wait_for("entry_changed", text="hello narrow world")
    missing = winctl("--json", "select-text", str(name), "absent", expect=None)
    assert missing.code != 0 and "is not in the element's text" in missing.json["error"]["message"], missing.out
    past = winctl("--json", "select-text", str(name), "--start", "2", "--end", "99", expect=None)
    assert past.code != 0 and "past the element's text" in past.json["error"]["message"], past.out
    both = winctl("--json", "select-text", str(name), "wide", "--start", "1", "--end", "2", expect=None)
    assert both.code != 0, both.out
