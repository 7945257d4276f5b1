/**
 * One explicit state machine for every load in the UI (the shape elk's paginator uses):
 * idle → loading → done | error. Views render each state: a spinner, the error with the server's
 * message, an empty state, or the data. A newer run supersedes an older one still in flight.
 */
import { shallowRef, type ShallowRef } from 'vue';
import type { ApiFailure, ApiResult } from '../api/client.ts';

export type AsyncState<T> =
  | { state: 'idle' }
  | { state: 'loading'; previous: T | null }
  | { state: 'done'; value: T }
  | { state: 'error'; error: ApiFailure };

export interface Async<T> {
  current: ShallowRef<AsyncState<T>>;
  run(): Promise<AsyncState<T>>;
}

export function useAsync<T>(load: () => Promise<ApiResult<T>>): Async<T> {
  const current = shallowRef<AsyncState<T>>({ state: 'idle' });
  let generation = 0;
  return {
    current,
    async run() {
      const mine = ++generation;
      const prev = current.value;
      current.value = { state: 'loading', previous: prev.state === 'done' ? prev.value : prev.state === 'loading' ? prev.previous : null };
      const r = await load();
      const next: AsyncState<T> = r.ok ? { state: 'done', value: r.value } : { state: 'error', error: r };
      if (mine === generation) current.value = next;
      return next;
    },
  };
}

/** The value to show: the loaded one, or the previous one while reloading. */
export function valueOf<T>(s: AsyncState<T>): T | null {
  return s.state === 'done' ? s.value : s.state === 'loading' ? s.previous : null;
}
