from django.contrib import admin
from django.urls import include, path

from memoryadmin import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("apps.api.urls")),
]

handler404 = views.not_found
handler500 = views.server_error
