"""Cross-cutting infrastructure: settings, database, security, e-mail and formatting."""
