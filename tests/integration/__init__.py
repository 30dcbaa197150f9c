"""In process against the wire store and RabbitMQ: no worker pool, CLI process or browser (`make test-fast` runs these
and the units)."""
