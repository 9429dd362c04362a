"""The timer: each tick runs every domain's due work (hirings, reminders, settlement, trust steps, pushes), each step failing alone."""
