"""minitrain: a toy trainer whose config docs have drifted from its schema."""
