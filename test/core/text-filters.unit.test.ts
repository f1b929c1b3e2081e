import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { containsText, startsWithText } from '../../src/core/text-filters.js';

// The conditions as PostgreSQL receives them: the statement text and its parameters.
const dialect = new PgDialect();
const rendered = (condition: ReturnType<typeof containsText>) => {
  const { sql: text, params } = dialect.sqlToQuery(condition);
  return { sql: text, params };
};
const name = sql`name`;

describe('a ?q= filter', () => {
  it('matches the text anywhere, in any case', () => {
    expect(rendered(containsText(name, 'Web'))).toEqual({ sql: 'name ilike $1', params: ['%Web%'] });
  });

  it("matches LIKE's wildcards and escape literally", () => {
    expect(rendered(containsText(name, '100%_done\\')).params).toEqual(['%100\\%\\_done\\\\%']);
  });
});

describe('a prefix filter (action=pages.*)', () => {
  it('matches the start of the text, case-sensitively', () => {
    expect(rendered(startsWithText(name, 'pages.'))).toEqual({ sql: 'name like $1', params: ['pages.%'] });
  });

  it("matches LIKE's wildcards and escape literally", () => {
    expect(rendered(startsWithText(name, 'a_b%')).params).toEqual(['a\\_b\\%%']);
  });
});
