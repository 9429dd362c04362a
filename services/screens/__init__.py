"""Read models of the screens that gather several domains: shift cards, 'Próximo turno', dashboards, public profiles."""
