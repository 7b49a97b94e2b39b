import type { ApplicationModel, DataEntry } from './model';

/** The model's entries in their load order, each looked up once (a configuration may hold thousands). */
export function entriesInLoadOrder(model: Pick<ApplicationModel, 'data' | 'loadOrder'>): DataEntry[] {
  const byName = new Map(model.data.map((entry) => [entry.name, entry]));
  return model.loadOrder.flatMap((name) => {
    const entry = byName.get(name);
    return entry ? [entry] : [];
  });
}
