"""Run every benchmark: `python -m bench` (what `make bench` does)."""

from bench import chat_delivery, job_search, page_load

if __name__ == "__main__":
    job_search.main()
    chat_delivery.main()
    page_load.main()
