/**
 * In-memory state of the evidence jobs that are running now (observations, size walks): one per
 * host at a time, their last progress, cancel, and the subscribers of their SSE streams. The
 * stored record (evidence-repo.ts) is the truth once a job ends; this only lives while it runs.
 */
export type TaskEvent<P, V> = { event: 'progress'; data: P } | { event: 'done'; data: V };
export type TaskListener<P, V> = (e: TaskEvent<P, V>) => void;

interface Task<P, V> {
  hostId: string;
  controller: AbortController;
  progress: P | null;
  listeners: Set<TaskListener<P, V>>;
  settled: Promise<void>;
  settle: () => void;
}

export function createLiveTasks<P, V>() {
  const tasks = new Map<number, Task<P, V>>();
  const byHost = new Map<string, number>();

  const emit = (t: Task<P, V>, e: TaskEvent<P, V>) => {
    for (const l of t.listeners) {
      try { l(e); } catch { /* a broken stream must not stop the job */ }
    }
  };

  return {
    /** The id of the job running on a host, if any. */
    activeFor: (hostId: string): number | undefined => byHost.get(hostId),
    /** Registers a job that was just stored as running; returns its abort controller. */
    begin(id: number, hostId: string): AbortController {
      let settle = () => {};
      const settled = new Promise<void>((r) => { settle = r; });
      const t: Task<P, V> = { hostId, controller: new AbortController(), progress: null, listeners: new Set(), settled, settle };
      tasks.set(id, t);
      byHost.set(hostId, id);
      return t.controller;
    },
    progress(id: number, p: P): void {
      const t = tasks.get(id);
      if (!t) return;
      t.progress = p;
      emit(t, { event: 'progress', data: p });
    },
    /** Ends a job: subscribers get `done` with the stored record, then the job is forgotten. */
    end(id: number, record: V): void {
      const t = tasks.get(id);
      if (!t) return;
      tasks.delete(id);
      if (byHost.get(t.hostId) === id) byHost.delete(t.hostId);
      emit(t, { event: 'done', data: record });
      t.listeners.clear();
      t.settle();
    },
    isRunning: (id: number): boolean => tasks.has(id),
    lastProgress: (id: number): P | null => tasks.get(id)?.progress ?? null,
    cancel(id: number, reason: string): boolean {
      const t = tasks.get(id);
      if (!t) return false;
      t.controller.abort(new Error(reason));
      return true;
    },
    /** null when the job is not running (the caller answers from the stored record). */
    subscribe(id: number, listener: TaskListener<P, V>): (() => void) | null {
      const t = tasks.get(id);
      if (!t) return null;
      t.listeners.add(listener);
      return () => { t.listeners.delete(listener); };
    },
    /** Resolves when the job ends (immediately when it is not running). */
    settled: (id: number): Promise<void> => tasks.get(id)?.settled ?? Promise.resolve(),
    abortAll(reason: string): void {
      for (const t of tasks.values()) t.controller.abort(new Error(reason));
    },
  };
}
export type LiveTasks<P, V> = ReturnType<typeof createLiveTasks<P, V>>;
