"""Run every benchmark: `python -m bench` (what `make bench` does)."""

from bench import chat_delivery, fanout, job_search

if __name__ == "__main__":
    job_search.main()
    chat_delivery.main()
    fanout.main()
