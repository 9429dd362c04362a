"""The shift loop: applying and hiring, each action on a hiring, its timer steps, faltas, overlaps, ratings and staff review."""
