"""Live audits: drive a real MCP server, record the session, lint it (`mcplint audit`)."""
