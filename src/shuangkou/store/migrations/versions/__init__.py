"""Migration revisions, oldest first: ``v0001_initial`` creates the schema."""
