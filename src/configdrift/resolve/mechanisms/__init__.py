"""The mechanisms a project declares its configuration with, one module each."""
