"""posthog-emulator: a local, PostHog-compatible server for the organization administration API.

Built on the framework family PostHog itself runs on (Django + Django REST framework, with
PostHog's own ``drf-exceptions-hog`` error handler), so pagination envelopes, validation errors,
trailing-slash handling and serializer semantics come from the libraries, not from imitations.
"""

__version__ = "0.1.0"
