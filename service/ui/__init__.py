"""The operations dashboard at /ui: server-rendered pages over the same operations the API uses.

An aiohttp sub-application (`service.ui.app`: `dashboard`, mounted by `setup`), as Sidekiq::Web is over Sidekiq::API:
its handlers only parse a request, call `service.job_operations` and `service.ui.reads` (plain functions over the
repositories), and render a page. What the gateway holds (settings, repositories, the key check) is read through
`request.config_dict`: the sub-application keeps only its templates. The gateway's middlewares run around its
handlers as around every other (request metrics, error envelopes, and the rate limit, which tells dashboard pages by
their path).

When LPS_API_KEYS is set every page needs a signed-in key (`service.ui.signin`: a server-side session, never the key
in a cookie), with the role the API gives that key. Nothing is loaded from the internet.

Each page area has its module: `overview` (and its `live` part), `jobs` (the job list, a job's page, its snapshots),
`running`, `dead` (re-drive and discard), `products`, `watches`, `queues` (and the audit trail) and `login`. They
build on `pages` (what every page is made of: the signed-in wrapper, rendering, error pages, posted forms) and the
job lists on `job_lists` (what they share: filters, the query as meant, refreshing).
"""
