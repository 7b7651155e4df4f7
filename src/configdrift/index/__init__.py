"""Evidence first: every key's spellings, normalised, so that discovery and
placement compare what the code declares with what the docs present
whatever case, separator or affix each side writes it with."""
