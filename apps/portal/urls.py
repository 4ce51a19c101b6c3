from django.urls import path

from apps.portal import views

app_name = "portal"

urlpatterns = [
    path("", views.memories, name="memories"),
    path("memories/<str:memory_id>/", views.memory_detail, name="memory"),
    path("memories/<str:memory_id>/edit", views.memory_edit, name="edit"),
    path("memories/<str:memory_id>/pin", views.memory_pin, name="pin"),
    path("memories/<str:memory_id>/unpin", views.memory_unpin, name="unpin"),
    path("memories/<str:memory_id>/correct", views.memory_correct, name="correct"),
    path("memories/<str:memory_id>/delete", views.memory_delete, name="delete"),
    path("undo/<str:request_id>", views.memory_undo, name="undo"),
    path("controls", views.controls, name="controls"),
    path("pause", views.memory_pause, name="pause"),
    path("suppressions/<int:suppression_id>/remove", views.suppression_remove, name="suppression-remove"),
    path("forget", views.forget_all, name="forget-all"),
    path("export.json", views.export_json, name="export-json"),
    path("export", views.export_page, name="export"),
    path("link/<str:token>/", views.portal_link, name="link"),
]
