"""Who a person is: sign-up and login, sessions and devices, profiles and photos, the contact form."""
