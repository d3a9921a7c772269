"""Plain helpers shared by the end-to-end test modules: no fixtures (those are in
`tests/e2e/conftest.py`) and no tests, so no test module imports another."""
