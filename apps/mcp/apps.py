from django.apps import AppConfig


class McpConfig(AppConfig):
    name = "apps.mcp"
    label = "mcp_server"
    verbose_name = "MCP server"
