"""The HTTP gateway: records jobs and enqueues them; never searches or delivers itself."""
