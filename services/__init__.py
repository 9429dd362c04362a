"""The domain: every rule of the product, free of Reflex. Functions take the session explicitly."""
