import { describe, expect, it } from 'vitest';
import { AT_DRAFT, historyEntries, stepHistory } from './command-history';

const entries = ['GET k', 'SET k v', 'PING'];

describe('walking the command history', () => {
  it('goes to the newest command first, keeping what was typed as the draft', () => {
    expect(stepHistory(entries, AT_DRAFT, 'HG', 'older')).toEqual({
      cursor: { position: 0, draft: 'HG' },
      text: 'GET k',
    });
  });

  it('goes further back one command at a time', () => {
    const first = stepHistory(entries, AT_DRAFT, '', 'older')!;
    expect(stepHistory(entries, first.cursor, first.text, 'older')?.text).toBe('SET k v');
  });

  it('stops at the oldest command', () => {
    expect(stepHistory(entries, { position: 2, draft: '' }, 'PING', 'older')).toBeUndefined();
  });

  it('brings the draft back after the newest command', () => {
    expect(stepHistory(entries, { position: 0, draft: 'HG' }, 'GET k', 'newer')).toEqual({
      cursor: { position: -1, draft: 'HG' },
      text: 'HG',
    });
  });

  it('does nothing going newer from the draft', () => {
    expect(stepHistory(entries, AT_DRAFT, 'HG', 'newer')).toBeUndefined();
  });

  it('does nothing without a history', () => {
    expect(stepHistory([], AT_DRAFT, 'HG', 'older')).toBeUndefined();
  });

  it('drops a command repeated right after itself', () => {
    expect(historyEntries(['GET k', 'GET k', 'PING', 'GET k'])).toEqual(['GET k', 'PING', 'GET k']);
  });
});
