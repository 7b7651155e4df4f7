"""Git history: the config surface at another ref (``diff``, ``--diff-base``)
and each finding's history (``--provenance``). git runs through
``configdrift.git``, with the tree's executables switched off."""
