/** One stored session event: a line of the session file (see file.ts). Plain data, no imports. */
export type SessionEventType = 'user' | 'assistant' | 'tool_call' | 'tool_result';

export interface SessionEvent {
  id: string;
  ts?: string;
  type: SessionEventType;
  text: string;
  call_id?: string;
  tool?: string;
  /** 1-based line in the stored session file, for error messages and the manifest. */
  line?: number;
}
