import { describe, expect, it } from 'vitest';
import { HeldResources, refusedBlockers } from './heldResources';

describe('held resources', () => {
  it('hold a resource, and the data of an application behind its configuration or a reference', () => {
    const held = new HeldResources();
    held.hold('application:alps');
    expect(held.holds('application:alps')).toBe(true);
    expect(held.holds('dataset:alps/counts/{"site":"lac"}')).toBe(true);
    expect(held.holds('reference:alps/sites')).toBe(true);
    expect(held.holds('dataType:alps/counts')).toBe(true);
    expect(held.holds('additionalFile:alps/photos/p.jpg')).toBe(true);
    expect(held.holds('rightsRequest:alps/123')).toBe(false);
    expect(held.holds('charter:alps')).toBe(false);
    expect(held.holds('dataset:alpine/counts/{}')).toBe(false);
    expect(held.holds('user:ana')).toBe(false);
  });

  it('name, for each waiting change, the refused change of the same person before it that holds it back', () => {
    const items = [
      { id: 1, status: 'needs-attention', resource: 'application:alps', owner: 'ana' },
      { id: 2, status: 'queued', resource: 'dataset:alps/counts/{}', owner: 'ana' },
      { id: 3, status: 'queued', resource: 'dataset:alps/counts/{}', owner: 'ben' },
      { id: 4, status: 'queued', resource: 'rightsRequest:alps/1', owner: 'ana' },
      { id: 5, status: 'done', resource: 'dataset:alps/counts/{}', owner: 'ana' },
    ];
    expect([...refusedBlockers(items)].map(([id, blocker]) => [id, blocker.id])).toEqual([[2, 1]]);
  });

  it('hold the data of an application behind one of its references, not behind a deposit', () => {
    const held = new HeldResources();
    held.hold('reference:alps/sites');
    expect(held.holds('dataset:alps/counts/{}')).toBe(true);
    expect(held.holds('reference:alps/species')).toBe(true);
    // A refused file of a data type holds back its own later changes only.
    const data = new HeldResources();
    data.hold('dataType:alps/counts');
    expect(data.holds('dataType:alps/counts')).toBe(true);
    expect(data.holds('dataset:alps/counts/{}')).toBe(false);
    expect(data.holds('reference:alps/sites')).toBe(false);
    expect(data.holds('additionalFile:alps/photos/p.jpg')).toBe(false);
    const other = new HeldResources();
    other.hold('dataset:alps/counts/{"site":"lac"}');
    expect(other.holds('dataset:alps/counts/{"site":"lac"}')).toBe(true);
    expect(other.holds('dataset:alps/counts/{"site":"col"}')).toBe(false);
    expect(other.holds('reference:alps/sites')).toBe(false);
  });
});
