/** The MCP SDK and zod, bundled apart (dist/vendor/mcp.js) and required only by `ctxctl mcp` (see anthropic.ts). */
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { z } from 'zod';
