/** The OpenAI SDK, bundled apart (dist/vendor/openai.js) and required only when a request is sent (see anthropic.ts). */
export { default as OpenAI } from 'openai';
