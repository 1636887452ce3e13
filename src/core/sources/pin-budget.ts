import { formatNumber, formatTokens } from '../../view-model/format';
import { estimateTokensFromBytes } from '../estimate';

/** What the editor asks before pinning a whole file: the estimate (from its size, nothing read) against the free room. */
export interface PinSizeVerdict {
  estimate: number;
  /** True when the estimate exceeds the free room: ask first. */
  ask: boolean;
  /** The question, with the figures. */
  message: string;
}

/** Large enough that reading and counting takes seconds: the editor shows progress while it assembles. */
export const SLOW_PIN_BYTES = 512 * 1024;

/**
 * `room` is what is left under max_input in the last request (0 when it was refused), undefined when no request was
 * assembled yet (the whole max_input is the room then).
 */
export function pinSizeVerdict(source: string, bytes: number, maxInput: number, room: number | undefined): PinSizeVerdict {
  const estimate = estimateTokensFromBytes(bytes, source);
  const free = Math.max(0, room ?? maxInput);
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${formatNumber(bytes / 1024)} KB` : `${formatNumber(bytes)} bytes`;
  return {
    estimate,
    ask: estimate > free,
    message:
      `Pin ${source}? It is about ${formatTokens(estimate, false)} tokens (estimated from its ${size}) but only ${formatNumber(free)} tokens are free under max_input ${formatNumber(maxInput)}. ` +
      'A pinned file is mandatory: requests will be refused until you unpin it or raise the envelope.',
  };
}
