"""Run every benchmark: `python -m bench` (what `make bench` does)."""

from bench import chat_delivery, job_search, load_mixed

if __name__ == "__main__":
    job_search.main()
    chat_delivery.main()
    load_mixed.main()
