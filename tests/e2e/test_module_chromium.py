"""The chromium app module's templates on a real Chromium, with no model.

Each task runs through `TaskRunner` (one through the `winctl run` CLI) on a browser showing a
local site whose server logs every request (tests/fixtures/page_server.py): what a template
did is read from the server's log and from the page's own title (which the page sets from its
fields), never only from the runner's result.
"""

from __future__ import annotations

import shutil
import socket
import time
from collections.abc import Iterator

import pytest

from tests.conftest import wait_for_window
from tests.e2e.helpers.module_app import ModuleApp, template_succeeded
from tests.fixtures.launch import chromium_command
from tests.fixtures.page_server import PageServer
from winactions.agent import TaskRunner, TaskStatus
from winactions.agent.runner import TaskResult

pytestmark = pytest.mark.desktop


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[PageServer]:
    server = PageServer(tmp_path_factory.mktemp("site") / "requests.jsonl")
    yield server
    server.close()


@pytest.fixture(scope="module")
def browser(desktop, site, tmp_path_factory) -> Iterator[ModuleApp]:
    if shutil.which("chromium") is None:
        pytest.fail("chromium is not installed: run scripts/setup.sh")
    folder = tmp_path_factory.mktemp("chromium")
    argv = chromium_command(site.url("/first.html"), str(folder / "profile"))
    argv.insert(1, "--test-type")  # no "unsupported command-line flag" bar for --no-sandbox

    def ready(state) -> bool:
        return any(t.name == "Address and search bar" for t in state.targets) and "First page" in state.window.title

    with ModuleApp(desktop, folder, argv, ready, session="chromium-module") as app:
        yield app


def run(app: ModuleApp, task: str) -> TaskResult:
    return TaskRunner(app.desktop, max_model_calls=0).run(task)


def succeeded(result: TaskResult, template: str) -> None:
    template_succeeded(result, "chromium", template)


def test_open_a_url_loads_it(desktop, browser, site):
    result = run(browser, f"open {site.url('/second.html')} in chromium")
    succeeded(result, "open_url")
    assert site.requests("GET", "/second.html"), site.requests()
    wait_for_window(desktop, "Second page - Chromium")
    bar = next(t for t in browser.desktop.state().targets if t.name == "Address and search bar")
    assert f"127.0.0.1:{site.port}/second.html" in (bar.value or "")  # what its success: block checks


def test_go_back_returns_to_the_previous_page(desktop, browser, site):
    succeeded(run(browser, f"go to {site.url('/second.html')}"), "open_url")
    wait_for_window(desktop, "Second page - Chromium")
    succeeded(run(browser, "go back to the previous page"), "go_back")
    wait_for_window(desktop, "First page - Chromium")


def test_reload_asks_the_server_again(desktop, browser, site):
    succeeded(run(browser, f"visit {site.url('/first.html')} in the browser"), "open_url")
    before = len(site.requests("GET", "/first.html"))
    succeeded(run(browser, "reload the page"), "reload")
    deadline = time.monotonic() + 10
    while len(site.requests("GET", "/first.html")) == before:
        assert time.monotonic() < deadline, f"the server saw no new request: {site.requests()}"
        time.sleep(0.2)


def test_find_text_on_the_page(desktop, browser, site):
    """The page sets its title from its selection: the match found is what the page selected."""
    succeeded(run(browser, f"open {site.url('/article.html')} in chromium"), "open_url")
    succeeded(run(browser, "find 'accessibility trees' on the page"), "find_in_page")
    wait_for_window(desktop, "Selected: accessibility trees - Chromium")
    assert browser.desktop.call("clipboard").value == "accessibility trees"  # what its success: block checks


def test_fill_a_field_by_its_label(desktop, browser, site):
    """The page sets its title from the field's value: the page itself saw the typing."""
    succeeded(run(browser, f"open {site.url('/signup.html')} in chromium"), "open_url")
    succeeded(run(browser, "type Ada Lovelace into the Name field"), "fill_field")
    wait_for_window(desktop, "Sign up: name=Ada Lovelace")


def test_fill_and_submit_through_the_cli(desktop, browser, site, winctl):
    """`winctl run` on the browser's window: the server received the form with the value."""
    succeeded(run(browser, f"open {site.url('/signup.html')} in chromium"), "open_url")
    out = winctl("--window", "chromium", "run", "fill in the City field with Paris and submit").out
    assert "success" in out and "0 model calls" in out, out
    posts = site.requests("POST", "/submit")
    assert posts and posts[-1]["fields"]["city"] == ["Paris"], site.requests()
    wait_for_window(desktop, "Received - Chromium")


def test_a_url_that_fails_is_not_a_success(desktop, browser, site):
    """Nothing listens on the port: Chromium shows its error page, and the run fails naming it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    result = run(browser, f"open http://127.0.0.1:{closed}/nothing.html in chromium")
    assert result.status is not TaskStatus.SUCCESS
    assert "This site can\N{RIGHT SINGLE QUOTATION MARK}t be reached" in result.error, result.error
    assert result.model["calls"] == 0
