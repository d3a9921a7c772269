"""A stage keeps its name while the steps inside it change: a watcher that ticks during one of
a wait's reads still sees what the call is waiting for (the MCP progress test caught a tick
that showed only "reading the elements of ...")."""

from __future__ import annotations

from winactions import progress


def test_steps_inside_a_stage_show_as_part_of_it():
    with progress.watching(None) as watched:
        progress.step("before")
        assert watched.message == "before"
        with progress.stage('waiting for the text "Saved"'):
            progress.step('reading the elements of "Editor"')
            assert watched.message == 'waiting for the text "Saved": reading the elements of "Editor"'
            with progress.stage("looking again"):
                progress.step("one read")
                assert watched.message == 'waiting for the text "Saved": looking again: one read'
            progress.step("between reads")
            assert watched.message == 'waiting for the text "Saved": between reads'
        progress.step("after")
        assert watched.message == "after"


def test_a_stage_with_nobody_watching_does_nothing():
    with progress.stage("unwatched"):
        progress.step("nothing to see")
    assert progress.current() is None
