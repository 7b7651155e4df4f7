"""What filters the findings after the rules: inline suppressions and
per-file ignores (``suppress``), and the baseline (``baseline``)."""
