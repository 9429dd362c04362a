"""Vagas: publishing and their stages, search and the list, who may see them, plans, pay and price, alerts, attendance codes."""
