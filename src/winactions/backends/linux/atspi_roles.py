"""AT-SPI's vocabulary mapped onto the protocol's: roles, states and operations.

GetRole returns a number (cheaper than GetRoleName: no string, no translation), so the
tables are indexed by AtspiRole / AtspiStateType values as libatspi 2.x defines them.
Types are named after Windows UI Automation control types, so an agent learns one set.
"""

from __future__ import annotations

from dataclasses import replace

from winactions.model import Node, Operation

# AtspiRole value -> (native role name, normalized control type)
_ROLES = (
    "invalid:Custom accelerator-label:Text alert:Alert animation:Image arrow:Button calendar:Calendar "
    "canvas:Canvas check-box:CheckBox check-menu-item:MenuItem color-chooser:ColorChooser "
    "column-header:HeaderItem combo-box:ComboBox date-editor:Edit desktop-icon:ListItem "
    "desktop-frame:Window dial:Slider dialog:Dialog directory-pane:Pane drawing-area:Canvas "
    "file-chooser:Dialog filler:Pane focus-traversable:Pane font-chooser:Dialog frame:Window "
    "glass-pane:Pane html-container:Document icon:Image image:Image internal-frame:Window label:Text "
    "layered-pane:Pane list:List list-item:ListItem menu:Menu menu-bar:MenuBar menu-item:MenuItem "
    "option-pane:Pane page-tab:TabItem page-tab-list:Tab panel:Pane password-text:Edit "
    "popup-menu:Menu progress-bar:ProgressBar push-button:Button radio-button:RadioButton "
    "radio-menu-item:MenuItem root-pane:Pane row-header:HeaderItem scroll-bar:ScrollBar "
    "scroll-pane:ScrollPane separator:Separator slider:Slider spin-button:Spinner split-pane:SplitPane "
    "status-bar:StatusBar table:Table table-cell:DataItem table-column-header:HeaderItem "
    "table-row-header:HeaderItem tearoff-menu-item:MenuItem terminal:Document text:Edit "
    "toggle-button:Button tool-bar:ToolBar tool-tip:ToolTip tree:Tree tree-table:Table unknown:Pane "
    "viewport:Viewport window:Window extended:Pane header:Header footer:Group paragraph:Paragraph "
    "ruler:Pane application:Application autocomplete:ComboBox editbar:Edit embedded:Pane entry:Edit "
    "chart:Image caption:Text document-frame:Document heading:Heading page:Pane section:Group "
    "redundant-object:Pane form:Group link:Hyperlink input-method-window:Window table-row:Row "
    "tree-item:TreeItem document-spreadsheet:Document document-presentation:Document "
    "document-text:Document document-web:Document document-email:Document comment:Group "
    "list-box:List grouping:Group image-map:Image notification:Alert info-bar:StatusBar "
    "level-bar:ProgressBar title-bar:TitleBar block-quote:Group audio:Pane video:Pane definition:Text "
    "article:Group landmark:Group log:Group marquee:Text math:Text rating:Slider timer:Text "
    "static:Text math-fraction:Text math-root:Text subscript:Text superscript:Text "
    "description-list:List description-term:ListItem description-value:Text footnote:Text "
    "content-deletion:Text content-insertion:Text mark:Text suggestion:Group push-button-menu:SplitButton"
).split()
ROLES: tuple[tuple[str, str], ...] = tuple(tuple(r.split(":")) for r in _ROLES)  # type: ignore[misc]

# AtspiStateType bit -> protocol state name (None: not worth carrying)
_STATES = (
    None,
    "active",
    "armed",
    "busy",
    "checked",
    "collapsed",
    "defunct",
    "editable",
    "enabled",
    "expandable",
    "expanded",
    "focusable",
    "focused",
    None,
    "horizontal",
    "iconified",
    "modal",
    "multiline",
    "multiselectable",
    None,
    "pressed",
    "resizable",
    "selectable",
    "selected",
    "sensitive",
    "showing",
    "single_line",
    "stale",
    "transient",
    "vertical",
    "visible",
    "manages_descendants",
    "indeterminate",
    "required",
    "truncated",
    None,
    "invalid",
    None,
    None,
    "default",
    "visited",
    "checkable",
    "has_popup",
    "read_only",
)

ITEM_TYPES = ("DataItem", "ListItem", "TreeItem")
NOT_INVOKED = ("ComboBox", "Edit", "Spinner", "Document", *ITEM_TYPES)
TOGGLE_ROLES = {"toggle-button", "check-box", "radio-button", "check-menu-item", "radio-menu-item"}
CHOOSER_TYPES = {"ComboBox", "List", "Tab", "Table", "Tree"}
VALUE_TYPES = {"Slider", "Spinner", "ScrollBar", "ProgressBar"}
INVOKE_ACTIONS = ("click", "press", "activate", "jump", "open", "invoke")
EXPAND_ACTIONS = ("expand or contract", "expand", "toggle", "press")

IFACE = "org.a11y.atspi."


def role_of(number: int) -> tuple[str, str]:
    """(native name, control type) for an AtspiRole value; unknown numbers stay visible."""
    if 0 <= number < len(ROLES):
        return ROLES[number]
    return f"role-{number}", "Custom"


# Roles whose text is secret. AT-SPI has no "protected" state (UIA has IsPassword): the role
# says it, so the protocol's "protected" state is set from the role.
PROTECTED_ROLES = frozenset({"password-text"})


def protect(node: Node) -> Node:
    """A password field marked "protected", with no value: not even its bullets (their count
    is the password's length)."""
    if node.native_role not in PROTECTED_ROLES:
        return node
    return replace(node, states=node.states | {"protected"}, value=None)


def states_of(words: list[int]) -> frozenset[str]:
    """The protocol's state names from AT-SPI's 64-bit state set (two uint32 words).

    `enabled` in the protocol means usable: AT-SPI needs both ENABLED and SENSITIVE — except
    that LibreOffice sets ENABLED alone on its documents, sheets and cells, which an agent
    can edit: ENABLED with EDITABLE counts too.
    """
    bits = (words[0] if words else 0) | ((words[1] if len(words) > 1 else 0) << 32)
    names = {name for i, name in enumerate(_STATES) if name and bits >> i & 1}
    if "enabled" in names and "sensitive" not in names and "editable" not in names:
        names.discard("enabled")
    names.discard("sensitive")
    if "expandable" in names and "expanded" not in names:
        names.add("collapsed")
    return frozenset(names)


def operations_of(
    native_role: str,
    control_type: str,
    interfaces: tuple[str, ...],
    actions: tuple[str, ...],
    states: frozenset[str],
    parent_selects: bool,
) -> frozenset[Operation]:
    """Which semantic operations this element supports, from what AT-SPI says it is."""
    ops: set[Operation] = set()
    lowered = tuple(a.lower() for a in actions)
    # A cell's "activate" is a double click (GTK's row-activated) and an entry's is Enter:
    # neither is what clicking them means.
    if any(a in INVOKE_ACTIONS for a in lowered) and control_type not in NOT_INVOKED:
        ops.add(Operation.INVOKE)
    if native_role in TOGGLE_ROLES and any(a in ("click", "toggle", "press") for a in lowered):
        ops.add(Operation.TOGGLE)
    if parent_selects and (
        "selectable" in states or control_type in ("DataItem", "ListItem", "TabItem", "TreeItem", "MenuItem")
    ):
        ops.add(Operation.SELECT)
    if ("expandable" in states or control_type == "ComboBox") and any(a in EXPAND_ACTIONS for a in lowered):
        ops.update((Operation.EXPAND, Operation.COLLAPSE))
    if IFACE + "EditableText" in interfaces and "editable" in states and "read_only" not in states:
        ops.add(Operation.SET_TEXT)
    if IFACE + "Value" in interfaces and control_type in VALUE_TYPES and control_type != "ProgressBar":
        ops.add(Operation.SET_VALUE)
    if control_type in CHOOSER_TYPES and (IFACE + "Selection" in interfaces or control_type == "ComboBox"):
        ops.add(Operation.CHOOSE)
    if "focusable" in states:
        ops.add(Operation.FOCUS)
    return frozenset(ops)
