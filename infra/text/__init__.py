"""Reading text as a Korean shopper writes it: folding, the Kiwi analyzer, words and units. Shared by the matcher
(actors/matching/) and the gateway (the job listing's `q=` words), so it lives below both."""
