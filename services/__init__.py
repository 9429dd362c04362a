"""Business rules, one folder per domain; a domain imports only the ones below it (docs/architecture.md).

common < accounts < reach < jobs < shifts < trust < money < screens < privacy < timer
(tests/unit/project/test_layers.py holds the order). A lower domain that must make a higher one act emits a
signal the higher one listens to; the listeners are connected here, so every process that imports
any service (the app, the timer, scripts, tests) hears them.
"""

from services.money import expiry
from services.shifts import hiring_lifecycle

hiring_lifecycle.listen(expiry.on_hiring_moved)
