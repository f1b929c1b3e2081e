import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { siteRuleProblems } from './site-rule-problems';

const refused = (details: unknown) =>
  new ApiError(422, { code: 'UNPROCESSABLE_ENTITY', message: 'Request could not be processed', details });

describe('the problems of a refused deployment', () => {
  it('lists each problem with its file and line', () => {
    const error = refused({
      reason: 'SITE_RULES_INVALID',
      problems: [
        { file: '_redirects', line: 3, message: 'status 418 is not supported' },
        { file: '_headers', line: 0, message: 'is larger than 256 KiB' },
      ],
      problemCount: 2,
    });
    expect(siteRuleProblems(error)).toEqual([
      '_redirects line 3: status 418 is not supported',
      '_headers: is larger than 256 KiB',
    ]);
  });

  it('is empty for any other refusal', () => {
    expect(siteRuleProblems(refused({ reason: 'ARCHIVE_PATH_UNSAFE', entry: '../x' }))).toEqual([]);
    expect(siteRuleProblems(new Error('offline'))).toEqual([]);
  });

  it('skips entries that are not problems', () => {
    expect(siteRuleProblems(refused({ reason: 'SITE_RULES_INVALID', problems: [{ file: 1 }, 'x'] }))).toEqual(
      [],
    );
  });
});
