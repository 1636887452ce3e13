import type * as AnthropicModule from './anthropic';
import type * as McpModule from './mcp';
import type * as OpenAIModule from './openai';

/**
 * Lazy requires of the vendor bundles. In dist/, `./vendor/NAME` is an external module next to the bundle
 * (scripts/build.mjs builds each apart); compiled for the tests, it is this folder's module.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const anthropicSdk = (): typeof AnthropicModule => require('./anthropic');
export const openaiSdk = (): typeof OpenAIModule => require('./openai');
export const mcpSdk = (): typeof McpModule => require('./mcp');
