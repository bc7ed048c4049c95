export { BackendRefusal, type RequestBody, type ScraperBackend } from './scraper-backend';
export { createMcpServer, MCP_SERVER_NAME } from './mcp-server';
export { serveMcpStdio } from './stdio';
export { OUTPUT_LIMITS } from './tool-output';
