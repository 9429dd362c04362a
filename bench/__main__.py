"""Run every benchmark: `python -m bench` (what `make bench` does)."""

from bench import job_search

if __name__ == "__main__":
    job_search.main()
