"""Who works with whom: teams, blocks, 'Contratar novamente' invites, reliability and the punctual-company badge."""
