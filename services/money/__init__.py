"""Moving money through Stripe: checkout, webhooks, settlement and its ledger, payouts, subscriptions, earnings."""
