"""A GTK3 window sized for the benchmark: a few controls and a TreeView of N rows x 3 columns.

Every row's cells are accessible objects (GTK reports them all as showing), so the node
count grows with N: about 100 nodes at 20 rows, about 2,000 at 640 rows.
usage: /usr/bin/python3 benchmarks/apps/tree_app.py ROWS TITLE
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def main():
    rows, title = int(sys.argv[1]), sys.argv[2]
    win = Gtk.Window(title=title)
    win.set_default_size(900, 700)
    win.move(100, 100)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    bar = Gtk.Box(spacing=4)
    for label in ("New", "Open", "Save", "Delete"):
        bar.pack_start(Gtk.Button(label=label), False, False, 0)
    bar.pack_start(Gtk.Entry(), True, True, 0)
    box.pack_start(bar, False, False, 0)
    store = Gtk.ListStore(str, str, str)
    for i in range(rows):
        store.append([str(i + 1), f"file-{i + 1:04d}.txt", f"{(i * 37) % 999} KB"])
    view = Gtk.TreeView(model=store)
    for col, title_ in enumerate(("ID", "Name", "Size")):
        column = Gtk.TreeViewColumn(title_, Gtk.CellRendererText(), text=col)
        column.set_resizable(True)
        view.append_column(column)
    scroller = Gtk.ScrolledWindow()
    scroller.add(view)
    box.pack_start(scroller, True, True, 0)
    win.add(box)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
