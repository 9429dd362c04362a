"""Run every benchmark: `python -m bench` (what `make bench` does)."""

from bench import (
    chat_delivery,
    city_suggest,
    event_roundtrip,
    fanout,
    job_search,
    load_mixed,
    memory,
    page_load,
    reminder_burst,
    settlement,
    shift_tick,
    team_visibility,
)

if __name__ == "__main__":
    job_search.main()
    team_visibility.main()
    city_suggest.main()
    shift_tick.main()
    settlement.main()
    chat_delivery.main()
    fanout.main()
    event_roundtrip.main()
    reminder_burst.main()
    memory.main()
    page_load.main()
    load_mixed.main()
