"""Placing the docs and examples onto a surface: which pages document it
(``pages``), which config path each entry describes (``entries``), a
model mounted where the docs place it (``fit``), the example blocks and
config files whose place is certain (``examples``, ``config_files``), and
the renames a doc table records (``renames``)."""
