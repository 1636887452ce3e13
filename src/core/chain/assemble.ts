/** The chain's entry point, kept under its old name for its many callers: see pipeline.ts. */
export { assemble, DEFAULT_MODEL, type AssembleOptions, type Assembly } from './pipeline';
