"""One module per route group; importing a module registers its pages."""
