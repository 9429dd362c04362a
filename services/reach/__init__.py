"""How Turno reaches a person: notifications and the bell, chats, web push, WhatsApp and their consents."""
