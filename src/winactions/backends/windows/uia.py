"""UI Automation's vocabulary, as documented in UIAutomationClient.h, and its mapping onto
the protocol's. Pure data: no COM here, so the mapping is tested everywhere."""

from __future__ import annotations

# UIA_<Name>ControlTypeId values
CONTROL_TYPES: dict[int, str] = {
    50000 + i: name
    for i, name in enumerate(
        (
            "Button",
            "Calendar",
            "CheckBox",
            "ComboBox",
            "Edit",
            "Hyperlink",
            "Image",
            "ListItem",
            "List",
            "Menu",
            "MenuBar",
            "MenuItem",
            "ProgressBar",
            "RadioButton",
            "ScrollBar",
            "Slider",
            "Spinner",
            "StatusBar",
            "Tab",
            "TabItem",
            "Text",
            "ToolBar",
            "ToolTip",
            "Tree",
            "TreeItem",
            "Custom",
            "Group",
            "Thumb",
            "DataGrid",
            "DataItem",
            "Document",
            "SplitButton",
            "Window",
            "Pane",
            "Header",
            "HeaderItem",
            "Table",
            "TitleBar",
            "Separator",
            "SemanticZoom",
            "AppBar",
        )
    )
}
CONTROL_TYPE_IDS: dict[str, int] = {name: number for number, name in CONTROL_TYPES.items()}

# UIA_<Name>PatternId values, for the patterns the protocol uses
PATTERNS: dict[int, str] = {
    10000: "Invoke",
    10001: "Selection",
    10002: "Value",
    10003: "RangeValue",
    10004: "Scroll",
    10005: "ExpandCollapse",
    10006: "Grid",
    10007: "GridItem",
    10009: "Window",
    10010: "SelectionItem",
    10012: "Table",
    10013: "TableItem",
    10014: "Text",
    10015: "Toggle",
    10016: "Transform",
    10017: "ScrollItem",
    10018: "LegacyIAccessible",
}

# The protocol's types are UIA's names, so most map to themselves; these read better as others.
TYPE_ALIASES = {"DataGrid": "Table", "AppBar": "ToolBar", "SemanticZoom": "List", "Thumb": "Thumb"}

TOGGLE_STATES = {0: "off", 1: "on", 2: "indeterminate"}
EXPAND_STATES = {0: "collapsed", 1: "expanded", 2: "partially_expanded", 3: "leaf"}

# Scroll amounts for IUIAutomationScrollPattern::Scroll
SCROLL_LARGE_DECREMENT, SCROLL_SMALL_DECREMENT, SCROLL_NO_AMOUNT = 0, 1, 2
SCROLL_LARGE_INCREMENT, SCROLL_SMALL_INCREMENT = 3, 4

# HRESULTs UIA documents for element calls, which the native layer turns into NativeError kinds
UIA_E_ELEMENTNOTAVAILABLE = 0x80040201
UIA_E_ELEMENTNOTENABLED = 0x80040200
UIA_E_INVALIDOPERATION = 0x80131509
UIA_E_NOTSUPPORTED = 0x80040204
UIA_E_TIMEOUT = 0x80131505
E_ACCESSDENIED = 0x80070005
