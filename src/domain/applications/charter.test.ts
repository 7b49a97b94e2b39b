import { describe, expect, it } from 'vitest';
import { charterSigning, isCharterType, looksLikePdf, mustSignOnDevice } from './charter';

const uploaded = '2025-03-11T12:00:00.000Z';

describe('charterSigning', () => {
  it('asks nothing of anyone when the application has no charter', () => {
    expect(charterSigning(undefined, null, false)).toEqual({
      hasSignedCharte: false,
      hasSignedLastCharte: true,
      mustSignCharter: false,
    });
  });

  it('asks a user who never accepted', () => {
    expect(charterSigning(undefined, uploaded, false)).toEqual({
      hasSignedCharte: false,
      hasSignedLastCharte: false,
      mustSignCharter: true,
    });
  });

  it('counts an acceptance later than the upload as signed', () => {
    expect(charterSigning('2025-03-11T12:00:00.001Z', uploaded, false).mustSignCharter).toBe(false);
  });

  it('asks again when the current charter was uploaded after the acceptance, or at the same instant', () => {
    expect(charterSigning('2025-03-10T08:00:00.000Z', new Date(uploaded), false)).toEqual({
      hasSignedCharte: true,
      hasSignedLastCharte: false,
      mustSignCharter: true,
    });
    expect(charterSigning(uploaded, uploaded, false).mustSignCharter).toBe(true);
  });

  it('never asks managers, user managers, creators or administrators', () => {
    expect(charterSigning(undefined, uploaded, true)).toEqual({
      hasSignedCharte: false,
      hasSignedLastCharte: false,
      mustSignCharter: false,
    });
  });

  it('reads an unreadable acceptance as none', () => {
    expect(charterSigning('yesterday', uploaded, false).hasSignedCharte).toBe(false);
  });
});

describe('isCharterType', () => {
  it('knows both spellings of the charter, and nothing else', () => {
    expect(['__charter__', '__charte__'].map(isCharterType)).toEqual([true, true]);
    expect(['protocols', 'charter', '__CHARTER__', '', undefined, null].map(isCharterType)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('mustSignOnDevice', () => {
  const asked = { mustSignCharter: true, charterUploadedAt: uploaded };

  it('follows the server when nothing happened on the device', () => {
    expect(mustSignOnDevice(asked, undefined, [])).toBe(true);
    expect(mustSignOnDevice({ mustSignCharter: false, charterUploadedAt: uploaded }, undefined, [])).toBe(false);
  });

  it('lets in a user whose acceptance of this version waits in the outbox', () => {
    expect(mustSignOnDevice(asked, undefined, [uploaded])).toBe(false);
  });

  it('does not count an acceptance of an older version still waiting', () => {
    expect(mustSignOnDevice(asked, undefined, ['2025-01-01T00:00:00.000Z'])).toBe(true);
  });

  it('lets in a user whose remembered acceptance is later than the upload', () => {
    expect(mustSignOnDevice(asked, '2025-03-12T09:00:00.000Z', [])).toBe(false);
    expect(mustSignOnDevice(asked, '2025-03-10T09:00:00.000Z', [])).toBe(true);
  });
});

describe('looksLikePdf', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('accepts what starts with %PDF-', () => {
    expect(looksLikePdf(bytes('%PDF-1.4\n%âãÏÓ\n'))).toBe(true);
  });

  it('refuses anything else, the empty file and a truncated header included', () => {
    expect(
      [bytes(''), bytes('%PDF'), bytes('PK\u0003\u0004'), bytes(' %PDF-1.4'), bytes('<html>')].map(looksLikePdf),
    ).toEqual([false, false, false, false, false]);
  });
});
