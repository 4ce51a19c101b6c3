from django.contrib import admin
from django.urls import include, path

from memoryadmin import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", views.metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("api/", include("apps.api.urls")),
    path("me/", include("apps.portal.urls")),
    path("console/", include("apps.console.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]

handler404 = views.not_found
handler500 = views.server_error
