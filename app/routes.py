"""Route constants and URL builders; no route string is written anywhere else."""

from urllib.parse import urlencode

HOME = "/"
LOGIN = "/login"
REGISTER = "/register"
FORGOT_PASSWORD = "/forgot-password"
RESET_PASSWORD = "/reset-password"
CONFIRM_EMAIL = "/confirm-email"
JOBS = "/jobs"
CATEGORIES = "/categories"
CATEGORY = "/categories/[category]"
FREELANCERS = "/freelancers"
HOW_IT_WORKS = "/how-it-works"
PRICING = "/pricing"
ABOUT = "/about"
CONTACT = "/contact"
TERMS = "/terms"
PRIVACY = "/privacy"
COOKIES = "/cookies"
COMPANY_PROFILE_SETUP = "/company-profile-setup"
CLIENT_DASHBOARD = "/client-dashboard"
CLIENT_CHATS = "/client-dashboard/chats"
FREELANCER_DASHBOARD = "/freelancer-dashboard"
FREELANCER_CHATS = "/freelancer-dashboard/chats"
DEV_MAILBOX = "/dev/mailbox"

API_LOGIN = "/api/auth/login"
API_LOGOUT = "/api/auth/logout"
API_HEALTH = "/api/health"


def register(kind: str) -> str:
    """Registration page with a tab preselected ('client' or 'freelancer')."""
    return f"{REGISTER}?{urlencode({'type': kind})}"


def category(slug: str) -> str:
    """Page of the companies with open jobs in a category."""
    return f"{CATEGORIES}/{slug}"


def jobs(city: str | None = None, search: str | None = None) -> str:
    """Job list filtered by city and/or search text (URL-encoded)."""
    params = {key: value for key, value in (("city", city), ("search", search)) if value}
    return f"{JOBS}?{urlencode(params)}" if params else JOBS


def maps_search(address: str) -> str:
    """External link that opens an address in Google Maps (no embedded map: it needs no third-party script)."""
    return f"https://www.google.com/maps/search/?{urlencode({'api': '1', 'query': address})}"
