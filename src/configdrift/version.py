"""configdrift's version (the package's, and the reports')."""

__version__ = "0.2.0"
