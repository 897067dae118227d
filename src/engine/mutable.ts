// kubernetes-types declares every field readonly. The store hands writers a private deep copy,
// typed as mutable for the duration of the update.
export type DeepMutable<T> = T extends (infer U)[]
  ? DeepMutable<U>[]
  : T extends readonly (infer U)[]
    ? DeepMutable<U>[]
    : T extends object
      ? { -readonly [K in keyof T]: DeepMutable<T[K]> }
      : T;

export const mutableCopy = <T>(v: T): DeepMutable<T> => structuredClone(v) as DeepMutable<T>;
