import { describe, expect, it } from 'vitest';
import { datasetResource } from './api';

describe('the outbox resource of a dataset', () => {
  it('is the same whatever the order of its scope, as the form or the server gives it', () => {
    const fromForm = datasetResource('alps', 'counts', { project: 'projectsKalps', site: 'sitesKlac_blanc' });
    const fromServer = datasetResource('alps', 'counts', { site: 'sitesKlac_blanc', project: 'projectsKalps' });
    expect(fromServer).toBe(fromForm);
    expect(fromForm).not.toBe(datasetResource('alps', 'counts', { project: 'projectsKalps', site: 'sitesKmont_joly' }));
  });
});
