from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from apps.api import views

app_name = "api"

urlpatterns = [
    path("v1/subjects/<str:external_id>", views.SubjectView.as_view(), name="subject"),
    path("v1/subjects/<str:external_id>/facts", views.FactCreateView.as_view(), name="facts"),
    path("v1/subjects/<str:external_id>/episodes", views.EpisodeCreateView.as_view(), name="episodes"),
    path("v1/subjects/<str:external_id>/memories", views.SubjectMemoryListView.as_view(), name="memories"),
    path("v1/subjects/<str:external_id>/memories:batch", views.BatchImportView.as_view(), name="memories-batch"),
    path("v1/subjects/<str:external_id>/export", views.SubjectExportView.as_view(), name="export"),
    path("v1/subjects/<str:external_id>/recall", views.RecallView.as_view(), name="recall"),
    path("v1/subjects/<str:external_id>/portal-link", views.PortalLinkView.as_view(), name="portal-link"),
    path("v1/subjects/<str:external_id>/turns", views.TurnCreateView.as_view(), name="turns"),
    path("v1/ingests/<str:ingest_id>", views.IngestDetailView.as_view(), name="ingest"),
    path("v1/memories/<str:memory_id>", views.MemoryDetailView.as_view(), name="memory"),
    path("v1/memories/<str:memory_id>/pin", views.PinView.as_view(), name="pin"),
    path("v1/memories/<str:memory_id>/unpin", views.UnpinView.as_view(), name="unpin"),
    path("v1/memories/<str:memory_id>/history", views.MemoryHistoryView.as_view(), name="history"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file, so the docs work under our CSP.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
]
