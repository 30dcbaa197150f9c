"""The embedded MongoDB-compatible store `lps mongo` serves for dev and tests: mongoeco's engines behind its wire
server, with LPS's patch (inserts flat in collection size, the job listing's and the active set's reads served from
compound indexes). README.md beside this file says what it supports, what it does not and its measured envelope.

Nothing here is imported by the gateway or the workers: they talk to MongoDB (or to this store) over the wire. Its
third-party packages are the `embedded` extra (`pip install lps[embedded]`)."""
