"""Developer scripts: the two commands (scripts/dev) and the fixture renderer."""
