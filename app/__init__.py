"""The Reflex application: pages, layout, API routes."""
