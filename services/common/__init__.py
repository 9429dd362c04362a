"""What every domain uses: typed errors, form validation, paging, rate limits, throttles, CPF/CNPJ and social links."""
