"""Names the product shows in place of a person or company it must not, or cannot, name."""

# A job posted anonymously ('Anúncio anônimo'): its company is never named, on any page, review or export.
CONFIDENTIAL_COMPANY = "Empresa Confidencial"
