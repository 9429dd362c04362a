"""Texts every screen shares: the generic failure toast (docs/product/README.md) and its parts.

A screen's own texts live with its state; only what several screens show is here, once.
"""

UNEXPECTED_TITLE = "Erro inesperado"
UNEXPECTED_MESSAGE = "Ocorreu um erro inesperado. Tente novamente."
UNEXPECTED = (UNEXPECTED_TITLE, UNEXPECTED_MESSAGE)
LOAD_FAILED_TITLE = "Erro ao carregar dados"
GENERIC_LOAD_ERROR = (LOAD_FAILED_TITLE, UNEXPECTED_MESSAGE)
ERROR_TITLE = "Erro"
TRY_AGAIN = "Tente novamente."
