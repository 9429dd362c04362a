"""Run every benchmark: `python -m bench` (what `make bench` does)."""

from bench import chat_delivery, event_roundtrip, fanout, job_search, load_mixed, memory, page_load

if __name__ == "__main__":
    job_search.main()
    chat_delivery.main()
    fanout.main()
    event_roundtrip.main()
    memory.main()
    page_load.main()
    load_mixed.main()
