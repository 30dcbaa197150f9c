"""Worker pools: Dramatiq actors that work SEARCH and OUTBOX jobs, and the middleware that records them."""
