// A user preference kept in the browser's localStorage through jotai's atomWithStorage (as the
// sidebar's), under a key and a text format fixed by a logic module's parse and serialize: the
// console has always stored these texts, so what users saved reads back unchanged.
import { atomWithStorage } from 'jotai/utils';

/** The part of the Web Storage API a preference uses (a Map-backed one in unit tests). */
export interface TextStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const browserStorage = (): TextStorage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

/**
 * An atom holding the parsed preference: read from storage when first used (parse gets null
 * when nothing is stored and gives the default), written back as serialize's text on every set.
 */
export function preferenceAtom<T>(
  key: string,
  parse: (stored: string | null) => T,
  serialize: (value: T) => string,
  storage: () => TextStorage | undefined = browserStorage,
) {
  const initial = parse(null);
  return atomWithStorage<T>(
    key,
    initial,
    {
      getItem: (k) => {
        const s = storage();
        return s ? parse(s.getItem(k)) : initial;
      },
      setItem: (k, value) => storage()?.setItem(k, serialize(value)),
      removeItem: (k) => storage()?.removeItem(k),
      // What another tab saves applies here too, as it did when the window re-read storage.
      subscribe: (k, callback) => {
        if (typeof window === 'undefined' || storage() !== browserStorage()) return undefined;
        const onStorage = (e: StorageEvent) => e.storageArea === localStorage && e.key === k && callback(parse(e.newValue));
        window.addEventListener('storage', onStorage);
        return () => window.removeEventListener('storage', onStorage);
      },
    },
    { getOnInit: true },
  );
}
