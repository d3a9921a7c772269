"""The visual locator: find an element from pixels when the accessibility tree cannot.

Strategies (template, OCR, vision LLM, fixed points) each turn a screen image into
`Candidate`s; the fallback chain tries them in order, validates the winner against the
screens and caches it while the pixels there still match.
"""
