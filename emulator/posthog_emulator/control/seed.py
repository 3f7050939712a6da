"""Bulk seeding for load tests and benchmarks: ``POST /_emulator/seed/organizations``.

Not an emulation of anything PostHog serves (there is no ``/api/`` route here): it creates many
organizations in one transaction, so a test of listing or inventory at scale (the benchmark's
2,000 organizations, ``bench/``) does not spend a minute on 2,000 ``POST /api/organizations``.
Each seeded organization looks like one created through the API (docs/posthog_facts.md §1, "Create"): a
"Default project" and the user as a member, at owner level by default. Unlike the API create, the
user's current organization and project do not move.
"""

from django.db import transaction
from django.urls import re_path
from django.utils.text import slugify

from posthog_emulator.bootstrap import BOOTSTRAP_EMAIL
from posthog_emulator.control.base import ControlError, control_view, json_response, read_json
from posthog_emulator.control.base import find_organization, organization_summary, parse_level, parse_string
from posthog_emulator.models import MAX_SLUG_LENGTH, Organization, OrganizationMembership, Team, User

MAX_SEED = 10000
DEFAULT_PREFIX = "Seeded org"


@control_view("POST")
def seed_organizations(request):
    """Create ``count`` organizations named ``<prefix> 0001`` … with a project and a membership each.

    Body: ``count`` (1–10000, required), ``prefix`` (default "Seeded org"; names are at most 64
    characters), ``email`` (the member, default the bootstrap user; must exist), ``level``
    (default owner). Slugs are the slugified names; a name or slug that exists already is a 400
    and nothing is created. Answers 201 ``{"created", "first", "last"}``.
    """
    data = read_json(request)
    count = data.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_SEED:
        raise ControlError(f"Expected an integer from 1 to {MAX_SEED}.", "count")
    prefix = parse_string(data, "prefix", DEFAULT_PREFIX)
    if not prefix or not prefix.strip():
        raise ControlError("This field may not be blank.", "prefix")
    width = max(4, len(str(count)))
    names = [f"{prefix.strip()} {index:0{width}d}" for index in range(1, count + 1)]
    if len(names[-1]) > 64:
        raise ControlError("The names would be longer than 64 characters; use a shorter prefix.", "prefix")
    slugs = [slugify(name)[:MAX_SLUG_LENGTH] for name in names]
    if len(set(slugs)) != len(slugs) or not all(slugs):
        raise ControlError("The prefix does not give distinct slugs; use letters or digits.", "prefix")
    email = parse_string(data, "email", BOOTSTRAP_EMAIL)
    user = User.objects.filter(email__iexact=email or "").first()
    if user is None:
        raise ControlError(f"No user {email!r}; create one with POST /_emulator/keys first.", "email")
    level = parse_level(data.get("level", "owner"))
    with transaction.atomic():
        taken = set(Organization.objects.filter(slug__in=slugs).values_list("slug", flat=True))
        taken.update(slugify(n) for n in Organization.objects.filter(name__in=names).values_list("name", flat=True))
        if taken:
            raise ControlError(f"{len(taken)} of these organizations exist already (e.g. {sorted(taken)[0]!r}); "
                               "use another prefix or reset first.", "prefix")
        organizations = Organization.objects.bulk_create(
            [Organization(name=name, slug=slug) for name, slug in zip(names, slugs)], batch_size=500
        )
        Team.objects.bulk_create([Team(organization=org, name="Default project") for org in organizations],
                                 batch_size=500)
        OrganizationMembership.objects.bulk_create(
            [OrganizationMembership(organization=org, user=user, level=level) for org in organizations],
            batch_size=500,
        )
    return json_response(
        {
            "created": len(organizations),
            "first": organization_summary(find_organization(slugs[0])),
            "last": organization_summary(find_organization(slugs[-1])),
        },
        status=201,
    )


urlpatterns = [
    re_path(r"^seed/organizations/?$", seed_organizations),
]
