"""Code hooks of this app module, loaded by path by the task runner.

`read_file(path) -> str` gives the success checks (`file_contains`, `file_equals`) the text
of a document this app saved: OpenDocument and Office Open XML read from their XML, a
spreadsheet one row a line (cells joined by tabs), anything else as UTF-8 text.
"""

from __future__ import annotations

from winactions.agent.documents import document_text as read_file

__all__ = ["read_file"]
