"""States shared by several pages."""
