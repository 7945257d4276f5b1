/**
 * Computed artifacts, in the image of Lighthouse's (core/computed): a value derived from named
 * artifacts — one pool's sync-write evidence, say — built once per assessment and handed, the same
 * object, to every reader (the rules, the Optane verdict, the forecast).
 *
 * The memo is keyed by the artifacts the value reads, by identity, then by the subject's key (a
 * pool name), in WeakMaps: when an assessment's artifacts are dropped, so are their computed values.
 * It is keyed by the artifacts themselves, not by the object holding them, because the engine hands
 * each rule a fresh object carrying only the artifacts it declared (engine.ts pick): the same values,
 * another object. So the verdict's full artifacts and every rule's subset reach one entry, provided
 * the reader declares every input (a rule lists them in its optionalArtifacts); a reader that lacks
 * one holds other inputs, and gets a value built from what it holds, as it should.
 *
 * The builder sees only the declared inputs, so nothing it reads is missing from the key. It must be
 * pure, and its value is shared: readers must not change it.
 */
import type { ArtifactMap, ArtifactName } from '../../server/src/model/artifacts.ts';

export type ComputedInputs<I extends ArtifactName> = Partial<Pick<ArtifactMap, I>>;

export interface ComputedArtifact<I extends ArtifactName, S, V> {
  readonly name: string;
  /** The artifacts the value is computed from: a reader declares them all to share the value. */
  readonly inputs: readonly I[];
  /** The value for `subject` from these artifacts: built on the first request, the same object after. */
  request(artifacts: ComputedInputs<I>, subject: S): V;
  /** How many times the builder ran in this process (tests count it to show "once per assessment"). */
  readonly builds: number;
}

/** Stands for an absent artifact in the key (WeakMap keys are objects). */
const MISSING = Object.freeze({});

interface Node<V> {
  next: WeakMap<object, Node<V>>;
  values: Map<string, V> | null;
}

const node = <V>(): Node<V> => ({ next: new WeakMap(), values: null });

/**
 * A computed artifact named `name`, from `inputs` (the first one must be present for the value to be
 * kept: without it there is nothing to key on, and the value is built each time), for a subject
 * whose `keyOf` names it among the inputs (a pool by its name).
 */
export function computedArtifact<I extends ArtifactName, S, V>(
  name: string,
  inputs: readonly I[],
  keyOf: (subject: S) => string,
  build: (artifacts: ComputedInputs<I>, subject: S) => V,
): ComputedArtifact<I, S, V> {
  const root = new WeakMap<object, Node<V>>();
  let builds = 0;
  const run = (given: ComputedInputs<I>, subject: S): V => {
    // Only the declared inputs reach the builder: what it reads is what the key holds.
    const picked: ComputedInputs<I> = {};
    for (const n of inputs) if (given[n] !== undefined) picked[n] = given[n];
    builds++;
    return build(picked, subject);
  };
  return {
    name,
    inputs,
    get builds() { return builds; },
    request(given, subject) {
      const first = inputs[0] === undefined ? undefined : given[inputs[0]];
      if (typeof first !== 'object' || first === null) return run(given, subject);
      let at = root.get(first);
      if (!at) root.set(first, (at = node()));
      for (const n of inputs.slice(1)) {
        const v = given[n];
        const k = typeof v === 'object' && v !== null ? v : MISSING;
        let next = at.next.get(k);
        if (!next) at.next.set(k, (next = node()));
        at = next;
      }
      const values = at.values ?? (at.values = new Map());
      const key = keyOf(subject);
      if (values.has(key)) return values.get(key)!;
      const v = run(given, subject);
      values.set(key, v);
      return v;
    },
  };
}
