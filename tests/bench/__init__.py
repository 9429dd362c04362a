"""Tests that run the benchmarks in quick mode and assert their invariants (never their timings)."""
