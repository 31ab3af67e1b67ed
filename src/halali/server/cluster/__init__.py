"""Several server nodes as one site: table leases with fencing tokens in PostgreSQL, table events and
node-to-node requests over Redis Streams, shared presence and lobby, and bots on pulled worker jobs
(docs/deploy.md). Nothing here runs in the single-process default: it starts only with ``--redis``.
"""
