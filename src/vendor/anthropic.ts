/**
 * The Anthropic SDK, bundled apart (dist/vendor/anthropic.js) and required only when a request is sent: the CLI's
 * other commands and the workers start without parsing it (each bundle carries only what it uses).
 */
export { default as Anthropic } from '@anthropic-ai/sdk';
