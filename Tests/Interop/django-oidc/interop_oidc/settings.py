# Django settings of the independent OpenID Connect provider the interoperability tests sign in against:
# django-oidc-provider (PyPI), which nobody here wrote, on SQLite in $INTEROP_DATA, served on 127.0.0.1:$INTEROP_PORT.
import os

DATA = os.environ["INTEROP_DATA"]
PORT = os.environ["INTEROP_PORT"]

SECRET_KEY = os.environ.get("INTEROP_SECRET", "interop-tests-only")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oidc_provider",
    "interop_oidc",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "interop_oidc.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [os.path.join(os.path.dirname(os.path.dirname(__file__)), "templates")],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(DATA, "db.sqlite3")}}
USE_TZ = True
LOGIN_URL = "/accounts/login/"

# The provider: issuer http://127.0.0.1:PORT/openid; claims of the profile and email scopes in the id_token.
SITE_URL = f"http://127.0.0.1:{PORT}"
OIDC_USERINFO = "interop_oidc.userinfo.userinfo"
OIDC_IDTOKEN_INCLUDE_CLAIMS = True
OIDC_IDTOKEN_EXPIRE = int(os.environ.get("INTEROP_ID_TOKEN_SECONDS", "600"))
OIDC_TOKEN_EXPIRE = int(os.environ.get("INTEROP_ID_TOKEN_SECONDS", "600"))
